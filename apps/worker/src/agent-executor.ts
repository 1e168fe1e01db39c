/**
 * The engine's agent port in the worker, one sandbox session and proxy per attempt:
 * - agent CLIs (`claude`, see CLI_PROVIDERS): the CLI runs inside the step sandbox behind the
 *   model gateway (runCliStep), with the team's access to its vendor from Settings → Models.
 * - `openai_compatible`: the worker is the MCP client of the step's sandboxed proxy and
 *   drives the Chat Completions loop itself (runOpenAiCompatible); no built-in runs in the
 *   worker. `options.base_url` must fall under an endpoint the team allows (or the worker's
 *   SWITCHYARD_MODEL_ENDPOINTS); the key is `options.api_key` (write it `{{.env.NAME}}` to take
 *   it from the team's secrets), else the team's openai_compatible key.
 * Every call the proxy records becomes a ToolCall row of the attempt and every span a Span
 * row, a tool the CLI ran itself a ToolCall with fidelity `agent_reported`, all flushed
 * before the attempt is finished; what the agent reports streams to the run as events.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "@opentelemetry/api";
import { AppError } from "@switchyard/core/errors";
import { costOf, DEFAULT_PRICES, priceOf, type ModelGateway, type PriceTable } from "@switchyard/core/gateway";
import {
  findBuiltCli,
  modelEndpointOf,
  openAgentStepSession,
  CLI_PROVIDERS,
  runCliStep,
  VENDOR_LABELS,
  type AgentId,
  type CliProviderEntry,
  runOpenAiCompatible,
  stageAgent,
  stageBuiltCli,
  stepToolsOf,
  toolProxyFromClient,
  type AgentStepEvent,
  type BuiltCli,
  type ModelVendor,
  type StagedAgent,
  type StepConnectors,
} from "@switchyard/core/providers";
import type { SandboxHost, StepFolders } from "@switchyard/core/sandbox";
import type { FetchLike } from "@switchyard/core/egress";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentExecutor, AgentRequest, AgentResult } from "@switchyard/core/workflow";
import type { Db } from "@switchyard/db";
import type { Logger } from "./logger";
import { toolCallRecorder } from "./tool-call-recorder";
import { withChildSpan } from "./tracing";

export type AgentExecutorDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  /** The run's host (owner tag `<worker>/<run>`), uid, folder and folders. */
  sandbox: SandboxHost;
  uid: number | undefined;
  runDir: string;
  folders: StepFolders;
  scrubber: Scrubber;
  /** Endpoints every team's openai_compatible steps may call (SWITCHYARD_MODEL_ENDPOINTS). */
  modelEndpoints: readonly string[];
  /** The worker's egress fetch for model endpoints: openai_compatible requests obey the egress rule. */
  modelFetch: FetchLike;
  /** The team's model access for a vendor (Settings → Models), its key opened. */
  modelAccess: (vendor: ModelVendor) => Promise<TeamModelAccess | undefined>;
  /** Prices over the built-in table (SWITCHYARD_MODEL_PRICES), for what the worker meters itself. */
  prices?: PriceTable;
  /** The worker's model gateway; without one, CLI providers are unavailable. */
  gateway: ModelGateway | undefined;
  /** Where `npm run agents:install` put the CLIs, and where they are staged for step uids. */
  agentsDir: string;
  agentsStageDir: string;
  /** The connectors an attempt's `mcp_proxy` names, resolved before it starts (undefined: none). */
  stepConnectors: (request: AgentRequest) => Promise<StepConnectors | undefined>;
  /** What an attempt reports while it runs, for the run's live view. */
  onAgentEvent: (attempt: { stepRunId: string; state: string; attempt: number }, event: AgentStepEvent) => void;
  trace: Context;
  /** How long tool-call writes wait for an unreachable database (SWITCHYARD_DB_OUTAGE_MS). */
  outageMs: number;
};

export type TeamModelAccess = { endpoint: string | null; apiKey: string | undefined; allowedEndpoints: string[] };

/** The built CLI (packages/cli/bin/build.mjs makes it): its `mcp-serve` is each step's proxy. */
const CLI_DIST = fileURLToPath(new URL("../../../packages/cli/dist/", import.meta.url));

/** The W3C traceparent of the step's span, its sampled flag as the run's trace has it. */
export const traceparentOf = (traceId: string, spanId: string, traceFlags: number) =>
  /^0+$/.test(traceId) ? undefined : `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;

const apiKeyOf = (options: Record<string, unknown>) => {
  const key = options.api_key;
  if (key === undefined || key === "") return undefined;
  if (typeof key !== "string")
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "options.api_key must be a string (e.g. \"{{.env.MODEL_KEY}}\")", {
      location: { path: "options.api_key" },
    });
  return key;
};

export const createAgentExecutor = (deps: AgentExecutorDeps): AgentExecutor => {
  const prices = { ...DEFAULT_PRICES, ...deps.prices };
  /** What an openai_compatible step cost at the table's price of its model, when it has one and the tokens were counted. */
  const costFields = (options: Record<string, unknown>, result: AgentResult) => {
    const price = typeof options.model === "string" ? priceOf(options.model, prices) : undefined;
    if (!price || result.tokensEstimated || result.tokensInput === undefined || result.tokensOutput === undefined) return {};
    return { costUsd: costOf({ inputTokens: result.tokensInput, outputTokens: result.tokensOutput, cacheReadTokens: 0, cacheWriteTokens: 0 }, price) };
  };
  let cli: Promise<BuiltCli> | undefined;
  const builtCli = () => {
    cli ??= findBuiltCli(CLI_DIST).then((found) => {
      if (found.stale) deps.log.warn("the built switchyard CLI is older than its sources: run `node packages/cli/bin/build.mjs`", { dir: found.dir });
      // The worker's folder of runs is one the step uid can enter by construction.
      return stageBuiltCli(found, path.dirname(deps.runDir));
    });
    cli.catch(() => (cli = undefined));
    return cli;
  };

  const events = (request: AgentRequest, event: AgentStepEvent, recorder: ReturnType<typeof toolCallRecorder>) => {
    recorder.agentEvent(event);
    deps.onAgentEvent({ stepRunId: request.attemptId!, state: request.stateName, attempt: request.attempt }, event);
  };

  const staged = new Map<AgentId, Promise<StagedAgent>>();
  const stagedAgent = (agent: AgentId) => {
    let found = staged.get(agent);
    if (!found) {
      found = Promise.resolve().then(() => stageAgent(deps.agentsDir, agent, deps.agentsStageDir));
      staged.set(agent, found);
      found.catch(() => staged.delete(agent));
    }
    return found;
  };

  const runCli = async (entry: CliProviderEntry, request: AgentRequest, traceparent: string | undefined): Promise<AgentResult> => {
    if (!request.attemptId) throw new AppError("SYSTEM.INTERNAL", `agent step "${request.stateName}" has no attempt id`);
    if (!deps.gateway) throw new AppError("EXECUTION.AGENT_UNAVAILABLE", "this worker has no model gateway");
    const vendor = entry.cli.vendor;
    const access = await deps.modelAccess(vendor);
    if (!access?.apiKey)
      throw new AppError(
        "USER.PROVIDER.NOT_CONFIGURED",
        `"${request.stateName}" runs ${entry.label}, but the team has no ${VENDOR_LABELS[vendor]} key: an admin sets one in Settings → Models`,
        { location: { path: `states.${request.stateName}.provider` } },
      );
    deps.scrubber.add(access.apiKey);
    const connectors = await deps.stepConnectors(request);
    const recorder = toolCallRecorder({ ...deps, stepRunId: request.attemptId });
    try {
      const agent = await stagedAgent(entry.agent);
      return await runCliStep({
        provider: entry.cli,
        request,
        proxy: {
          sandbox: deps.sandbox,
          uid: deps.uid,
          runDir: deps.runDir,
          workspace: deps.folders.workspace,
          cli: await builtCli(),
          ...(traceparent ? { traceparent } : {}),
          onRecord: recorder.record,
          onSpan: recorder.span,
          tools: stepToolsOf(request.mcpProxy, connectors),
        },
        agent,
        gateway: deps.gateway,
        upstream: { baseUrl: modelEndpointOf(vendor, access.endpoint)!, apiKey: access.apiKey },
        onEvent: (event) => events(request, event, recorder),
      });
    } finally {
      await connectors?.host.close();
      await recorder.flush();
    }
  };

  const runOpenAi = async (request: AgentRequest, traceparent: string | undefined): Promise<AgentResult> => {
    if (!request.attemptId) throw new AppError("SYSTEM.INTERNAL", `agent step "${request.stateName}" has no attempt id`);
    const access = await deps.modelAccess("openai_compatible");
    const apiKey = apiKeyOf(request.options) ?? access?.apiKey;
    // A key written literally in the workflow is a secret all the same.
    if (apiKey) deps.scrubber.add(apiKey);
    const connectors = await deps.stepConnectors(request);
    const recorder = toolCallRecorder({ ...deps, stepRunId: request.attemptId });
    // The step's connectors are let go when it ends, whichever way (its grants stop feeding its scrubber).
    try {
      return await openAiStep(request, { attemptId: request.attemptId, traceparent, access, apiKey, connectors, recorder });
    } finally {
      await connectors?.host.close();
    }
  };

  type OpenAiStep = {
    attemptId: string;
    traceparent: string | undefined;
    access: TeamModelAccess | undefined;
    apiKey: string | undefined;
    connectors: StepConnectors | undefined;
    recorder: ReturnType<typeof toolCallRecorder>;
  };
  const openAiStep = async (request: AgentRequest, { attemptId, traceparent, access, apiKey, connectors, recorder }: OpenAiStep): Promise<AgentResult> => {
    let step: Awaited<ReturnType<typeof openAgentStepSession>>;
    try {
      step = await openAgentStepSession({
        sandbox: deps.sandbox,
        attemptId,
        uid: deps.uid,
        runDir: deps.runDir,
        workspace: deps.folders.workspace,
        cli: await builtCli(),
        secrets: apiKey ? [apiKey] : [],
        ...(traceparent ? { traceparent } : {}),
        onRecord: recorder.record,
        onSpan: recorder.span,
        tools: stepToolsOf(request.mcpProxy, connectors),
        signal: request.signal,
      });
    } catch (error) {
      // Cancelled while the proxy was starting: the step was cancelled, not broken.
      if (!request.signal.aborted) throw error;
      await recorder.flush();
      return { output: "", error: "EXECUTION.CANCELLED: the step was cancelled while its MCP proxy was starting" };
    }
    try {
      const result = await runOpenAiCompatible({
        request,
        tools: toolProxyFromClient(step.client),
        allowedEndpoints: [...deps.modelEndpoints, ...(access?.allowedEndpoints ?? [])],
        fetch: deps.modelFetch,
        onEvent: (event) => events(request, event, recorder),
        ...(apiKey ? { apiKey } : {}),
      });
      return {
        output: result.output,
        ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
        ...(result.error === undefined ? {} : { error: result.error }),
        ...(result.tokensUsed === undefined ? {} : { tokensUsed: result.tokensUsed }),
        ...(result.tokensInput === undefined ? {} : { tokensInput: result.tokensInput }),
        ...(result.tokensOutput === undefined ? {} : { tokensOutput: result.tokensOutput }),
        ...(result.tokensEstimated ? { tokensEstimated: true } : {}),
        ...(result.errorCode === undefined ? {} : { errorCode: result.errorCode }),
        ...costFields(request.options, result),
      };
    } finally {
      try {
        await step.close();
      } finally {
        // Records the proxy sent before it ended are in; the step ends once they are stored.
        await recorder.flush();
      }
    }
  };

  const providerOf = (name: string) => {
    if (name === "openai_compatible") return runOpenAi;
    if (!Object.hasOwn(CLI_PROVIDERS, name)) return undefined;
    const entry = CLI_PROVIDERS[name]!;
    return (request: AgentRequest, traceparent: string | undefined) => runCli(entry, request, traceparent);
  };

  return {
    execute: (request) => {
      const run = providerOf(request.provider);
      if (!run)
        return Promise.reject(
          new AppError("EXECUTION.AGENT_UNAVAILABLE", `provider "${request.provider}" of "${request.stateName}" does not run in the worker (${[...Object.keys(CLI_PROVIDERS), "openai_compatible"].join(", ")} do)`),
        );
      return withChildSpan(
        deps.trace,
        `agent ${request.stateName}`,
        {
          "switchyard.run.id": deps.runId,
          "switchyard.step.attempt": request.attempt,
          "switchyard.step.path": request.path.key,
          "switchyard.agent.provider": request.provider,
          "switchyard.sandbox.level": deps.sandbox.level,
        },
        (span) => {
          const context = span.spanContext();
          return run(request, traceparentOf(context.traceId, context.spanId, context.traceFlags));
        },
      ).catch((error: unknown) => {
        throw deps.scrubber.scrubError(error);
      });
    },
  };
};

/**
 * The engine's agent port in the worker: core's agent executor (createAgentExecutor) with the
 * worker's ports. Keys and endpoints are the team's model access from Settings → Models (an
 * openai_compatible step's `options.base_url` must also fall under SWITCHYARD_MODEL_ENDPOINTS
 * or the team's allowed endpoints); the built CLI is staged beside the run folders and the
 * agent CLIs in agentsStageDir; the step's connectors are resolved before it starts. Every
 * call the proxy records becomes a ToolCall row of the attempt and every span a Span row, a
 * tool the CLI ran itself a ToolCall with fidelity `agent_reported`, all flushed before the
 * attempt is finished; what the agent reports streams to the run as events; each attempt
 * runs in a span of the run's trace. Before an attempt runs, `onAttemptStart` stores what it
 * starts with (attempt-start.ts: its request record and workspace snapshot). A CLI whose
 * pinned install has drifted from scripts/agents.json runs all the same: the run gets an
 * event, the log a warning (once per process and CLI version).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { context as activeContext, SpanStatusCode, type Context } from "@opentelemetry/api";
import type { ModelGateway, PriceTable } from "@switchyard/core/gateway";
import {
  createAgentExecutor,
  createAgentStaging,
  modelEndpointOf,
  VENDOR_LABELS,
  type AgentStepEvent,
  type AgentVersionChoice,
  type AgentVersionDrift,
  type ModelVendor,
  type StepConnectors,
} from "@switchyard/core/providers";
import type { ReplayPlan } from "@switchyard/core/replay";
import type { SandboxHost, StepFolders } from "@switchyard/core/sandbox";
import type { FetchLike } from "@switchyard/core/egress";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentExecutor, AgentRequest, AgentResult } from "@switchyard/core/workflow";
import type { Db } from "@switchyard/db";
import { AppError } from "@switchyard/core/errors";
import type { AttemptHandle, createGovernance } from "./attempt-governance";
import type { conversationSessions } from "./conversation-sessions";
import type { createConversations } from "./conversation-turns";
import { logDrift } from "./drift-log";
import type { Logger } from "./logger";
import type { StepBudgets } from "./step-budget";
import { recordAttemptEvents } from "./tool-call-rows";
import {
  agentProviderName,
  meteredChatSpan,
  stepTracer,
  traceparentOfSpan,
  withChildSpan,
} from "./tracing";

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
  /** Which install of its CLI each CLI step runs (a replay may ask for `latest`); pinned unless told. */
  agentVersion?: AgentVersionChoice;
  /** An agent CLI whose pinned install has drifted, told once per run. */
  onVersionDrift: (drift: AgentVersionDrift) => void;
  /** The connectors an attempt's `mcp_proxy` names, resolved before it starts (undefined: none). */
  stepConnectors: (request: AgentRequest) => Promise<StepConnectors | undefined>;
  /** What an attempt reports while it runs, for the run's live view. */
  onAgentEvent: (
    attempt: { stepRunId: string; state: string; attempt: number },
    event: AgentStepEvent,
  ) => void;
  trace: Context;
  /** How long tool-call writes wait for an unreachable database (SWITCHYARD_DB_OUTAGE_MS). */
  outageMs: number;
  /** A replay run's plan: every tool call answered from the recorded attempt, no connector opened. */
  replay?: ReplayPlan;
  /** Each attempt's budget meter and its ledger entries (step-budget.ts); unset: no budget. */
  budgets?: StepBudgets;
  /** Runs before each attempt, once its StepRun row is open (recordAttemptStart). */
  onAttemptStart?: (request: AgentRequest) => Promise<void>;
  /** Tool-call approvals and suspension (attempt-governance.ts); unset: none. */
  governance?: Governance;
  /** Where session-tracked steps keep their sessions and `continue_from` steps find them (conversation-sessions.ts). */
  sessions?: ReturnType<typeof conversationSessions>;
  /** `mode: conversation` turns (conversation-turns.ts); unset: such a step does not run. */
  conversations?: ReturnType<typeof createConversations>;
};

export type TeamModelAccess = {
  endpoint: string | null;
  apiKey: string | undefined;
  allowedEndpoints: string[];
};

/** The built CLI (packages/cli/bin/build.mjs makes it): its `mcp-serve` is each step's proxy. */
const CLI_DIST = fileURLToPath(new URL("../../../packages/cli/dist/", import.meta.url));

type Governance = ReturnType<typeof createGovernance>;

export const workerAgentExecutor = (deps: AgentExecutorDeps): AgentExecutor => {
  // Each attempt's governance, found by the executor's ports while it runs.
  const handles = new Map<string, AttemptHandle>();
  const executor = coreExecutor(deps, handles);
  const { onAttemptStart, governance, sessions, conversations } = deps;
  // A session-tracked step's session is stored (sealed) before the engine moves on.
  const keep = async (request: AgentRequest, result: AgentResult): Promise<AgentResult> => {
    const { kept, ...rest } = result;
    if (kept && sessions) await sessions.keep(request, kept);
    return rest;
  };
  return {
    execute: async (request) => {
      if (request.chat && (!conversations || !governance))
        throw new AppError(
          "USER.UNSUPPORTED_FEATURE",
          `"${request.stateName}" is a conversation (mode: conversation), which does not run here`,
        );
      // A conversation's turn after the first goes on from its session with the person's message.
      const turn = request.chat ? await conversations!.begin(request) : undefined;
      if (turn?.kind === "ended") return turn.result;
      if (!governance) {
        await onAttemptStart?.(request);
        return keep(request, await executor.execute(request));
      }
      const handle = await governance.forAttempt(request);
      // A resumed attempt continues its row: what it started with (its request, the workspace
      // before it) was recorded when it first started; so does a conversation's next turn.
      if (!handle.resumed && !turn?.next && !turn?.spent) await onAttemptStart?.(request);
      handles.set(
        request.attemptId,
        turn
          ? {
              ...handle,
              governance: {
                ...handle.governance,
                conversation: turn.next ? { next: turn.next } : {},
              },
            }
          : handle,
      );
      try {
        const result = await keep(request, await handle.settle(await executor.execute(request)));
        return turn ? await conversations!.afterTurn(request, turn, result) : result;
      } finally {
        handles.delete(request.attemptId);
      }
    },
  };
};

const coreExecutor = (
  deps: AgentExecutorDeps,
  handles: Map<string, AttemptHandle>,
): AgentExecutor => {
  const { gateway } = deps;
  return createAgentExecutor({
    sandbox: deps.sandbox,
    uid: deps.uid,
    runDir: deps.runDir,
    workspace: deps.folders.workspace,
    scrubber: deps.scrubber,
    staging: createAgentStaging({
      cliDist: CLI_DIST,
      agentsDir: deps.agentsDir,
      // The worker's folder of runs is one the step uid can enter by construction.
      cliStageDir: () => Promise.resolve(path.dirname(deps.runDir)),
      agentsStageDir: () => Promise.resolve(deps.agentsStageDir),
      onStaleCli: (dir) =>
        deps.log.warn(
          "the built switchyard CLI is older than its sources: run `node packages/cli/bin/build.mjs`",
          { dir },
        ),
      onVersionDrift: (drift) => {
        logDrift(deps.log, drift);
        deps.onVersionDrift(drift);
      },
    }),
    ...(deps.agentVersion ? { agentVersion: deps.agentVersion } : {}),
    gateway: gateway ? () => Promise.resolve(gateway) : undefined,
    upstream: async (vendor) => {
      const access = await deps.modelAccess(vendor);
      return access?.apiKey
        ? { baseUrl: modelEndpointOf(vendor, access.endpoint)!, apiKey: access.apiKey }
        : undefined;
    },
    openAiAccess: async () => {
      const access = await deps.modelAccess("openai_compatible");
      return {
        apiKey: access?.apiKey,
        allowedEndpoints: [...deps.modelEndpoints, ...(access?.allowedEndpoints ?? [])],
      };
    },
    modelFetch: deps.modelFetch,
    ...(deps.prices ? { prices: deps.prices } : {}),
    stepConnectors: deps.stepConnectors,
    ...(deps.replay ? { replay: deps.replay } : {}),
    ...(deps.budgets ? { budget: deps.budgets.open } : {}),
    governance: (request) => handles.get(request.attemptId)?.governance,
    ...(deps.sessions ? { continuedSession: deps.sessions.continued } : {}),
    subscribe: (request, events) => {
      const writer = recordAttemptEvents(events, { ...deps, stepRunId: request.attemptId });
      // The run's live view.
      const attempt = {
        stepRunId: request.attemptId,
        state: request.stateName,
        attempt: request.attempt,
      };
      events.subscribe("agent.reported", (event) => deps.onAgentEvent(attempt, event));
      // What the agent said so far goes with a call held for approval.
      events.subscribe("agent.reported", (event) => {
        if (event.type === "text") handles.get(request.attemptId)?.noteText(event.text);
      });
      // Subscribed under the attempt's invoke_agent span: the gateway's requests become its chat spans.
      const parent = activeContext.active();
      events.subscribe("model.metered", (event) => meteredChatSpan(parent, event));
      const { budgets } = deps;
      if (!budgets) return writer;
      return {
        flush: async () => {
          await writer.flush?.();
          await budgets.settle(request.attemptId);
        },
      };
    },
    tracer: stepTracer,
    traced: (request, run) => {
      const step = {
        "switchyard.run.id": deps.runId,
        "switchyard.step.attempt": request.attempt,
        "switchyard.step.path": request.path.key,
        "switchyard.step_run.id": request.attemptId,
        "switchyard.sandbox.level": deps.sandbox.level,
      };
      const model = typeof request.options.model === "string" ? request.options.model : undefined;
      return withChildSpan(deps.trace, `step ${request.stateName}`, step, (stepSpan) =>
        withChildSpan(
          activeContext.active(),
          `invoke_agent ${request.stateName}`,
          {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": request.stateName,
            "gen_ai.provider.name": agentProviderName(request.provider),
            "gen_ai.conversation.id": request.attemptId,
            ...(model ? { "gen_ai.request.model": model } : {}),
            "switchyard.agent.provider": request.provider,
            ...step,
          },
          async (span) => {
            // Scrubbed before the spans record it (the executor scrubs it again for the engine).
            const result = await run(traceparentOfSpan(span)).catch((error: unknown) => {
              throw deps.scrubber.scrubError(error);
            });
            if (result.error) {
              // The attempt failed without throwing: its code is the error's type.
              const message = deps.scrubber.scrub(result.error);
              for (const s of [span, stepSpan]) {
                s.setAttribute("error.type", result.errorCode ?? "EXECUTION.AGENT_FAILED");
                s.setStatus({ code: SpanStatusCode.ERROR, message });
              }
            }
            if (result.tokensInput !== undefined)
              span.setAttribute("gen_ai.usage.input_tokens", result.tokensInput);
            if (result.tokensOutput !== undefined)
              span.setAttribute("gen_ai.usage.output_tokens", result.tokensOutput);
            if (result.costUsd !== undefined)
              span.setAttribute("switchyard.cost.usd", result.costUsd);
            return result;
          },
        ),
      );
    },
    messages: {
      notConfigured: (request, entry) =>
        `"${request.stateName}" runs ${entry.label}, but the team has no ${VENDOR_LABELS[entry.cli.vendor]} key: an admin sets one in Settings → Models`,
      where: "in the worker",
    },
  });
};

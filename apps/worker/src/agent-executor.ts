/**
 * The engine's agent port in the worker. An `openai_compatible` step runs here: the worker
 * is the MCP client of the step's sandboxed proxy (agent-step-session.ts) and drives the
 * Chat Completions loop itself (runOpenAiCompatible); no built-in runs in the worker. Every
 * call the proxy records becomes a ToolCall row of the attempt and every span a Span row,
 * flushed before the attempt is finished. The key is the step's `options.api_key` (write it
 * `{{.env.NAME}}` to take it from the team's secrets); the endpoints a step may call are the
 * worker's SWITCHYARD_MODEL_ENDPOINTS until teams configure their own.
 */
import path from "node:path";
import type { Context } from "@opentelemetry/api";
import { AppError } from "@switchyard/core/errors";
import { runOpenAiCompatible, toolProxyFromClient } from "@switchyard/core/providers";
import type { SandboxHost, StepFolders } from "@switchyard/core/sandbox";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentExecutor, AgentRequest, AgentResult } from "@switchyard/core/workflow";
import type { Db } from "@switchyard/db";
import { findBuiltCli, openAgentStepSession, stageBuiltCli, type BuiltCli } from "./agent-step-session";
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
  modelEndpoints: readonly string[];
  trace: Context;
};

const traceparentOf = (traceId: string, spanId: string) =>
  /^0+$/.test(traceId) ? undefined : `00-${traceId}-${spanId}-01`;

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
  let cli: Promise<BuiltCli> | undefined;
  const builtCli = () => {
    cli ??= findBuiltCli().then((found) => {
      if (found.stale) deps.log.warn("the built switchyard CLI is older than its sources: run `node packages/cli/bin/build.mjs`", { dir: found.dir });
      // The worker's folder of runs is one the step uid can enter by construction.
      return stageBuiltCli(found, path.dirname(deps.runDir));
    });
    cli.catch(() => (cli = undefined));
    return cli;
  };

  const runOpenAi = async (request: AgentRequest, traceparent: string | undefined): Promise<AgentResult> => {
    if (!request.attemptId) throw new AppError("SYSTEM.INTERNAL", `agent step "${request.stateName}" has no attempt id`);
    const apiKey = apiKeyOf(request.options);
    // A key written literally in the workflow is a secret all the same.
    if (apiKey) deps.scrubber.add(apiKey);
    const recorder = toolCallRecorder({ ...deps, stepRunId: request.attemptId });
    let step: Awaited<ReturnType<typeof openAgentStepSession>>;
    try {
      step = await openAgentStepSession({
        sandbox: deps.sandbox,
        attemptId: request.attemptId,
        uid: deps.uid,
        runDir: deps.runDir,
        workspace: deps.folders.workspace,
        cli: await builtCli(),
        secrets: apiKey ? [apiKey] : [],
        ...(traceparent ? { traceparent } : {}),
        onRecord: recorder.record,
        onSpan: recorder.span,
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
        allowedEndpoints: deps.modelEndpoints,
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

  return {
    execute: (request) => {
      switch (request.provider) {
        case "openai_compatible":
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
              return runOpenAi(request, traceparentOf(context.traceId, context.spanId));
            },
          ).catch((error: unknown) => {
            throw deps.scrubber.scrubError(error);
          });
        default:
          return Promise.reject(
            new AppError("EXECUTION.AGENT_UNAVAILABLE", `provider "${request.provider}" of "${request.stateName}" does not run in the worker yet (openai_compatible does)`),
          );
      }
    },
  };
};

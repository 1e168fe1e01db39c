/**
 * Runs one claude step: starts Claude Code through the spawn port with the launch that
 * buildClaudeLaunch made (its files already written), stdin closed after the prompt (if it
 * goes there), stdout parsed into step events as it arrives, stderr kept as a bounded tail.
 * The outcome: the `result` event's answer, or a failure with its code: the CLI's error
 * result (model rejected or unavailable, max turns), a CLI that ended without a result
 * (EXECUTION.AGENT_NO_RESULT, with the end of its stderr), the step timeout, or cancelled.
 * A CLI that lingers after its result is stopped, so a step never outlives its answer.
 * The gateway token and the given secrets are scrubbed from every event and result.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentResult } from "../../workflow/engine-ports";
import { scrubEvent, type AgentStepEvent } from "../agent-events";
import { outcomeFields, type AgentStepStatus } from "../agent-outcome";
import type { AgentSpawn } from "../agent-process";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { ClaudeLaunch } from "./build-claude-launch";
import { claudeResultCode, claudeResultMessage, parseClaudeStream } from "./parse-claude-stream";

export type RunClaudeInput = {
  launch: ClaudeLaunch;
  spawn: AgentSpawn;
  signal: AbortSignal;
  timeoutMs?: number;
  onEvent?: (event: AgentStepEvent) => void;
  /** Other values to keep out of events and results (the step's secrets). */
  secrets?: readonly string[];
  /** Bytes of stderr kept (the end); 64 KiB unless told. */
  stderrTailBytes?: number;
  /** How long the CLI may linger after its result before it is stopped; 10 s unless told. */
  resultGraceMs?: number;
};

export type ClaudeResult = AgentResult & {
  status: AgentStepStatus;
  /** The error is Claude Code's own error result, not the way its process ended. */
  errorReported?: boolean;
  /** Whether trying the step again may help (the model was unavailable). */
  retryable?: boolean;
  /** Model turns, as the CLI counted them. */
  turns?: number;
  sessionId?: string;
  /** The CLI's own cost estimate at list prices (the gateway meters the real one). */
  costUsd?: number;
  /** The end of the CLI's stderr, scrubbed. */
  stderrTail: string;
};

export const runClaude = async (input: RunClaudeInput): Promise<ClaudeResult> => {
  const { launch } = input;
  const scrubber = new Scrubber().add(launch.env.ANTHROPIC_API_KEY);
  for (const secret of input.secrets ?? []) scrubber.add(secret);
  const scrub = (text: string) => scrubber.scrub(text);
  const emit = (event: AgentStepEvent) => input.onEvent?.(scrubEvent(event, scrub));
  const parser = parseClaudeStream(emit);
  let stderrTail = "";

  const finish = (
    status: ClaudeResult["status"],
    error?: AppError,
    reported = false,
  ): ClaudeResult => {
    const { summary } = parser;
    const usage = summary.usage;
    if (error && status === "failure" && !summary.result?.isError)
      emit({ type: "error", code: error.code, message: error.message });
    return {
      status,
      output: scrub(summary.result?.text ?? summary.text),
      stderrTail: scrub(stderrTail),
      ...(usage
        ? {
            tokensInput: usage.inputTokens,
            tokensOutput: usage.outputTokens,
            tokensUsed: usage.inputTokens + usage.outputTokens,
          }
        : {}),
      ...(summary.result?.turns === undefined ? {} : { turns: summary.result.turns }),
      ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
      ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
      ...(reported ? { errorReported: true } : {}),
      ...outcomeFields(status, error, scrub),
    };
  };

  const ran = await runAgentProcess({
    label: "Claude Code",
    launch,
    spawn: input.spawn,
    signal: input.signal,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.stderrTailBytes === undefined ? {} : { stderrTailBytes: input.stderrTailBytes }),
    ...(input.resultGraceMs === undefined ? {} : { resultGraceMs: input.resultGraceMs }),
    parser,
    hasResult: () => parser.summary.result !== undefined,
    lastNoise: () => parser.summary.lastNoise,
  });
  stderrTail = ran.stderrTail;
  if (ran.ended !== "result") return finish(ran.ended, ran.error);
  const result = parser.summary.result!;
  if (result.isError) {
    const code = claudeResultCode(result);
    return finish(
      "failure",
      new AppError(code, claudeResultMessage(result), {
        retryable: code === CODES.MODEL_UNAVAILABLE,
      }),
      true,
    );
  }
  // A CLI stopped for lingering after its answer did its work; any other exit must be clean.
  if (!ran.stopped && ran.exit.exitCode !== 0)
    return finish(
      "failure",
      new AppError(CODES.AGENT_FAILED, `Claude Code reported success but ${endedText(ran.exit)}`),
    );
  return finish("success");
};

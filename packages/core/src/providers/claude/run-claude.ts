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
import type { AgentStepEvent } from "../agent-events";
import type { AgentSpawn } from "../agent-process";
import { cliRunResult, scrubbedEvents, type CliRunEnd } from "../cli-run-result";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { CliRunResult } from "../step/cli-step";
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

export const runClaude = async (input: RunClaudeInput): Promise<CliRunResult> => {
  const { launch } = input;
  const { scrub, emit } = scrubbedEvents(
    [launch.env.ANTHROPIC_API_KEY, ...(input.secrets ?? [])],
    input.onEvent,
  );
  const parser = parseClaudeStream(emit);
  let stderrTail = "";

  const finish = (
    status: CliRunEnd["status"],
    error?: AppError,
    reported = false,
  ): CliRunResult => {
    const { summary } = parser;
    return cliRunResult(
      {
        status,
        ...(error
          ? { error, errorReported: reported, errorInStream: summary.result?.isError === true }
          : {}),
        output: summary.result?.text ?? summary.text,
        stderrTail,
        ...(summary.usage ? { usage: summary.usage } : {}),
        ...(summary.result?.turns === undefined ? {} : { turns: summary.result.turns }),
        ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
        ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
      },
      scrub,
      emit,
    );
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

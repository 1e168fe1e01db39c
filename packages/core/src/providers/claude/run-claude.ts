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
import { AppError, isAppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentResult } from "../../workflow/engine-ports";
import { scrubEvent, type AgentStepEvent } from "../agent-events";
import { outcomeFields, type AgentStepStatus } from "../agent-outcome";
import type { AgentExit, AgentProcess, AgentSpawn } from "../agent-process";
import type { ClaudeLaunch } from "./build-claude-launch";
import {
  claudeResultCode,
  claudeResultMessage,
  parseClaudeStream,
  type ClaudeStreamSummary,
} from "./parse-claude-stream";

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

const STDERR_TAIL = 64 * 1024;
const RESULT_GRACE_MS = 10_000;
/** How long to wait for stdout to drain after the port says the CLI is gone. */
const DRAIN_MS = 2000;
/** Characters of stderr (or stdout noise) quoted in a no-result error. */
const QUOTED = 1500;

/** Keeps the last `max` bytes of what it is given. */
const tailBuffer = (max: number) => {
  let chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk: Buffer) {
      chunks.push(chunk);
      size += chunk.length;
      while (size - chunks[0]!.length >= max) size -= chunks.shift()!.length;
    },
    text() {
      const all = Buffer.concat(chunks);
      chunks = [all];
      return all.subarray(Math.max(0, all.length - max)).toString("utf8");
    },
  };
};

const drained = (stream: AgentProcess["stdout"]) =>
  stream.destroyed || stream.readableEnded
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        stream.once("end", resolve);
        stream.once("close", resolve);
        setTimeout(resolve, DRAIN_MS).unref();
      });

const asAppError = (error: unknown, prefix: string) =>
  isAppError(error)
    ? error
    : new AppError(
        CODES.AGENT_FAILED,
        `${prefix}${error instanceof Error ? error.message : JSON.stringify(error)}`,
      );

const ended = (exit: AgentExit) =>
  exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.exitCode}`;

const noResultMessage = (exit: AgentExit, stderr: string, summary: ClaudeStreamSummary) => {
  const said = stderr.trim() || summary.lastNoise.join("\n").trim();
  const quoted = said.length > QUOTED ? `…${said.slice(-QUOTED)}` : said;
  return `Claude Code ${ended(exit)} without reporting a result${quoted ? `; its last output: ${quoted}` : " and printed nothing"}`;
};

export const runClaude = async (input: RunClaudeInput): Promise<ClaudeResult> => {
  const { launch, signal } = input;
  const scrubber = new Scrubber().add(launch.env.ANTHROPIC_API_KEY);
  for (const secret of input.secrets ?? []) scrubber.add(secret);
  const scrub = (text: string) => scrubber.scrub(text);
  const emit = (event: AgentStepEvent) => input.onEvent?.(scrubEvent(event, scrub));
  const parser = parseClaudeStream(emit);
  const stderr = tailBuffer(input.stderrTailBytes ?? STDERR_TAIL);

  const finish = (status: ClaudeResult["status"], error?: AppError): ClaudeResult => {
    const { summary } = parser;
    const usage = summary.usage;
    if (error && status === "failure" && !summary.result?.isError)
      emit({ type: "error", code: error.code, message: error.message });
    return {
      status,
      output: scrub(summary.result?.text ?? summary.text),
      stderrTail: scrub(stderr.text()),
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
      ...outcomeFields(status, error, scrub),
    };
  };
  const cancelled = () => new AppError("EXECUTION.CANCELLED", "the step was cancelled");

  if (signal.aborted) return finish("cancelled", cancelled());
  let proc: AgentProcess;
  try {
    proc = await input.spawn({ argv: launch.argv, env: launch.env });
  } catch (error) {
    return finish("failure", asAppError(error, "Claude Code could not start: "));
  }

  proc.stdout.on("data", (chunk: Buffer) => parser.push(chunk));
  proc.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  proc.stdin.on("error", () => undefined);
  proc.stdin.end(launch.stdin ?? "");

  let stopped: "cancelled" | "timeout" | "lingered" | undefined;
  let resultAtStop = false;
  const stop = (why: NonNullable<typeof stopped>) => {
    if (stopped) return;
    stopped = why;
    resultAtStop = parser.summary.result !== undefined;
    void proc.stop();
  };
  const onAbort = () => stop("cancelled");
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const deadline =
    input.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), input.timeoutMs);
  let linger: NodeJS.Timeout | undefined;
  const watchLinger = () => {
    if (linger || parser.summary.result === undefined) return;
    linger = setTimeout(() => stop("lingered"), input.resultGraceMs ?? RESULT_GRACE_MS);
  };
  proc.stdout.on("data", watchLinger);

  let exit: AgentExit = { exitCode: null, signal: null };
  let portError: unknown;
  try {
    exit = await proc.exited;
  } catch (error) {
    portError = error;
  } finally {
    clearTimeout(deadline);
    clearTimeout(linger);
    signal.removeEventListener("abort", onAbort);
  }
  if (portError !== undefined && !stopped)
    return finish("failure", asAppError(portError, "the Claude Code process failed: "));
  await Promise.all([drained(proc.stdout), drained(proc.stderr)]);
  parser.end();

  const result = parser.summary.result;
  if (stopped === "cancelled") return finish("cancelled", cancelled());
  if (stopped === "timeout" && !resultAtStop)
    return finish(
      "failure",
      new AppError(
        "EXECUTION.TIMEOUT",
        `Claude Code did not finish within ${input.timeoutMs! / 1000} s`,
      ),
    );
  if (!result)
    return finish(
      "failure",
      new AppError(CODES.AGENT_NO_RESULT, noResultMessage(exit, stderr.text(), parser.summary)),
    );
  if (result.isError) {
    const code = claudeResultCode(result);
    return finish(
      "failure",
      new AppError(code, claudeResultMessage(result), {
        retryable: code === CODES.MODEL_UNAVAILABLE,
      }),
    );
  }
  // A CLI stopped for lingering after its answer did its work; any other exit must be clean.
  if (!stopped && exit.exitCode !== 0)
    return finish(
      "failure",
      new AppError(CODES.AGENT_FAILED, `Claude Code reported success but ${ended(exit)}`),
    );
  return finish("success");
};

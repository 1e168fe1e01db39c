/**
 * What every agent CLI's run shares: the CLI started through the spawn port with its launch
 * (files already written), stdin closed after the prompt (if it goes there), stdout handed to
 * the provider's parser as it arrives, stderr kept as a bounded tail; the step timeout, a
 * cancel, and a CLI that lingers after its result all stop it. The outcome says how it ended:
 * a failure that is no provider's to read (could not start, the port failed, timed out
 * without a result, ended without one: EXECUTION.AGENT_NO_RESULT with the end of its
 * stderr), cancelled, or ended with a result for the provider to judge.
 */
import { AppError, isAppError } from "../errors/app-error";
import { CODES } from "../errors/error-codes";
import type { AgentExit, AgentProcess, AgentSpawn } from "./agent-process";

export type AgentProcessLaunch = { argv: string[]; env: Record<string, string>; stdin?: string };

export type RunAgentProcessInput = {
  /** The CLI's name in messages ("Claude Code"). */
  label: string;
  launch: AgentProcessLaunch;
  spawn: AgentSpawn;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Takes stdout as it arrives; `end` once it is drained. */
  parser: { push: (chunk: Buffer) => void; end: () => void };
  /** Whether the CLI has reported its result (the answer or its error). */
  hasResult: () => boolean;
  /** Stdout lines that were not events, quoted when stderr says nothing. */
  lastNoise: () => readonly string[];
  /**
   * Bytes of stderr kept (the end).
   * @default 64 * 1024 (64 KiB)
   */
  stderrTailBytes?: number;
  /**
   * How long the CLI may linger after its result before it is stopped.
   * @default RESULT_GRACE_MS (10 s)
   */
  resultGraceMs?: number;
};

export type AgentProcessOutcome = { stderrTail: string } & (
  | { ended: "failure"; error: AppError }
  | { ended: "cancelled"; error: AppError }
  /** It reported a result; `exit` is clean unless it was stopped (lingering, or a timeout after the result). */
  | { ended: "result"; exit: AgentExit; stopped: boolean }
);

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

/** How the CLI ended, for messages: "exited with code 1", "was stopped by SIGKILL". */
export const endedText = (exit: AgentExit) =>
  exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.exitCode}`;

const noResultMessage = (
  label: string,
  exit: AgentExit,
  stderr: string,
  noise: readonly string[],
) => {
  const said = stderr.trim() || noise.join("\n").trim();
  const quoted = said.length > QUOTED ? `…${said.slice(-QUOTED)}` : said;
  return `${label} ${endedText(exit)} without reporting a result${quoted ? `; its last output: ${quoted}` : " and printed nothing"}`;
};

export const runAgentProcess = async (
  input: RunAgentProcessInput,
): Promise<AgentProcessOutcome> => {
  const { launch, signal, parser, label } = input;
  const stderr = tailBuffer(input.stderrTailBytes ?? STDERR_TAIL);
  const cancelled = (): AgentProcessOutcome => ({
    ended: "cancelled",
    error: new AppError("EXECUTION.CANCELLED", "the step was cancelled"),
    stderrTail: stderr.text(),
  });
  const failure = (error: AppError): AgentProcessOutcome => ({
    ended: "failure",
    error,
    stderrTail: stderr.text(),
  });

  if (signal.aborted) return cancelled();
  let proc: AgentProcess;
  try {
    proc = await input.spawn({ argv: launch.argv, env: launch.env });
  } catch (error) {
    return failure(asAppError(error, `${label} could not start: `));
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
    resultAtStop = input.hasResult();
    void proc.stop();
  };
  const onAbort = () => stop("cancelled");
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const deadline =
    input.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), input.timeoutMs);
  let linger: NodeJS.Timeout | undefined;
  const watchLinger = () => {
    if (linger || !input.hasResult()) return;
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
    return failure(asAppError(portError, `the ${label} process failed: `));
  await Promise.all([drained(proc.stdout), drained(proc.stderr)]);
  parser.end();

  if (stopped === "cancelled") return cancelled();
  if (stopped === "timeout" && !resultAtStop)
    return failure(
      new AppError(
        "EXECUTION.TIMEOUT",
        `${label} did not finish within ${input.timeoutMs! / 1000} s`,
      ),
    );
  if (!input.hasResult())
    return failure(
      new AppError(
        CODES.AGENT_NO_RESULT,
        noResultMessage(label, exit, stderr.text(), input.lastNoise()),
      ),
    );
  return { ended: "result", exit, stopped: stopped !== undefined, stderrTail: stderr.text() };
};

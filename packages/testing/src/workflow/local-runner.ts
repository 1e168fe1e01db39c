/**
 * Test helpers for the engine: a process runner on real local shells (through core's
 * runProcess), an in-memory bundle, an in-memory event sink and an in-memory step recorder.
 */
import { runProcess } from "@switchyard/core/sandbox";
import type {
  AttemptFinished,
  AttemptStarted,
  BundleFiles,
  ProcessRequest,
  ProcessRunner,
  RunEvent,
  StepRecorder,
} from "@switchyard/core/workflow";

export const localRunner =
  (log: ProcessRequest[] = []): ProcessRunner =>
  async (request) => {
    log.push(request);
    const r = await runProcess({
      argv: request.argv,
      cwd: request.cwd ?? process.cwd(),
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...request.env },
      stdin: request.stdin,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      killGraceMs: 500,
    });
    return {
      exitCode: r.exitCode,
      stdout: r.stdout,
      stderr: r.stderr,
      timedOut: r.timedOut,
      cancelled: r.cancelled,
    };
  };

export const memoryFiles = (files: Record<string, string>): BundleFiles => ({
  read: (p) => files[p.replace(/^\.\//, "")],
});

export const memoryEventSink = () => {
  const events: RunEvent[] = [];
  return { events, sink: (e: RunEvent) => void events.push(e) };
};

export type MemoryAttempt = AttemptStarted & { id: string; end?: AttemptFinished };

const samePlace = (a: AttemptStarted, b: AttemptStarted) =>
  a.state === b.state &&
  a.attempt === b.attempt &&
  JSON.stringify(a.path) === JSON.stringify(b.path);

/**
 * Step attempts in the order they started, each with its end once recorded. Given the
 * attempts of a run stopped before, it offers their ends (those not cancelled) as earlier.
 */
export const memoryRecorder = (before: MemoryAttempt[] = []) => {
  const attempts: MemoryAttempt[] = [];
  const recorder: StepRecorder = {
    earlier: (start) =>
      before.find((a) => samePlace(a, start) && a.end && a.end.status !== "cancelled")?.end,
    attemptStarted: async (start) => {
      const id = `attempt-${attempts.length + 1}`;
      attempts.push({ ...start, id });
      return { id };
    },
    attemptFinished: async (handle, end) => {
      const attempt = attempts.find((a) => a.id === handle.id);
      if (!attempt || attempt.end) throw new Error(`attempt ${handle.id} is not open`);
      attempt.end = end;
    },
  };
  return { attempts, recorder };
};

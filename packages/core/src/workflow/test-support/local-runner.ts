/**
 * Test helpers for the engine: a process runner on real local shells (through core's
 * runProcess), an in-memory bundle, and an event recorder.
 */
import { runProcess } from "../../sandbox/run-process";
import type { BundleFiles, ProcessRequest, ProcessRunner, RunEvent } from "../engine-ports";

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

export const recorder = () => {
  const events: RunEvent[] = [];
  return { events, sink: (e: RunEvent) => void events.push(e) };
};

/**
 * For the real-CLI tests: one run of a provider's runner (runClaude, runCodex, ...) in a
 * test step, as the worker would do it but through the plain spawn port: the launch's files
 * written into the step's private HOME, the CLI started in the workspace, and what a test
 * looks at kept beside the result (the events, the raw stdout, the pid the port started).
 */
import type { AgentStepEvent } from "@switchyard/core/providers";
import type { AgentSpawn } from "@switchyard/core/providers";
import { writeLaunchFiles, type LaunchFile } from "@switchyard/core/providers";
import { plainSpawn } from "./plain-spawn";
import type { TestStep } from "./step-processes";

/** What the test's runner gets: the launch, the port, a signal that never fires, a generous timeout. */
export type StepRunInput<L> = {
  launch: L;
  spawn: AgentSpawn;
  signal: AbortSignal;
  timeoutMs: number;
  onEvent: (event: AgentStepEvent) => void;
};

export type RanInStep<R> = R & {
  events: AgentStepEvent[];
  stdout: string;
  /** The CLI's pid (the port starts the CLI itself, or a program that execs it). */
  pids: number[];
};

/** `run` calls the provider's runner with the input, adding or replacing what the test sets (a signal, a timeout). */
export const runInStep = async <L extends { files: readonly LaunchFile[] }, R>(
  step: Pick<TestStep, "home" | "work">,
  launch: L,
  run: (input: StepRunInput<L>) => Promise<R>,
): Promise<RanInStep<R>> => {
  await writeLaunchFiles(launch.files, { home: step.home });
  const events: AgentStepEvent[] = [];
  let stdout = "";
  const pids: number[] = [];
  const plain = plainSpawn({ cwd: step.work });
  const result = await run({
    launch,
    spawn: async (request) => {
      const proc = await plain(request);
      pids.push(proc.pid);
      proc.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      return proc;
    },
    signal: new AbortController().signal,
    timeoutMs: 150_000,
    onEvent: (e) => {
      events.push(e);
    },
  });
  return { ...result, events, stdout, pids };
};

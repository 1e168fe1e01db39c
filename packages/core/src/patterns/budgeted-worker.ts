/**
 * Runs plain JavaScript in a worker thread with a time budget, for work whose cost a user
 * or a model decides (a regular expression can backtrack exponentially): the caller's
 * thread keeps serving other work, and the worker is terminated when the budget runs out.
 *
 * The source receives its input as `workerData` and answers with
 * `parentPort.postMessage({ done: value })`. A job made of independent steps may announce
 * each with `{ step: n, progress }`: every step then gets the whole budget, and a timeout
 * names the step that was running and hands back the progress sent with it (what the
 * earlier steps found). The clock starts once the worker runs, not while it boots.
 */
import { Worker } from "node:worker_threads";

type WorkerRun<T, P = undefined> =
  | { kind: "done"; value: T }
  | { kind: "timeout"; step: number; progress: P | undefined }
  | { kind: "failed"; message: string };

type BudgetedWorkerOptions = {
  budgetMs: number;
  signal?: AbortSignal;
  /**
   * Old-generation heap of the worker; a runaway job dies instead of growing the process.
   * @default 256
   */
  memoryMb?: number;
};

type WorkerMessage<T, P> = { done: T } | { step: number; progress?: P };

export const runBudgetedWorker = <T, P = undefined>(
  source: string,
  data: unknown,
  options: BudgetedWorkerOptions,
): Promise<WorkerRun<T, P>> =>
  new Promise((resolve) => {
    const { budgetMs, signal } = options;
    if (signal?.aborted) {
      resolve({ kind: "failed", message: "cancelled" });
      return;
    }
    const worker = new Worker(source, {
      eval: true,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb ?? 256 },
    });
    let settled = false;
    let step = 0;
    let progress: P | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: WorkerRun<T, P>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const startClock = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ kind: "timeout", step, progress }), budgetMs);
    };
    const onAbort = () => finish({ kind: "failed", message: "cancelled" });
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("online", startClock);
    worker.on("message", (message: WorkerMessage<T, P>) => {
      if ("done" in message) return finish({ kind: "done", value: message.done });
      step = message.step;
      progress = message.progress;
      startClock();
    });
    worker.on("error", (error) => finish({ kind: "failed", message: error.message }));
    worker.on("exit", () => finish({ kind: "failed", message: "the worker stopped" }));
  });

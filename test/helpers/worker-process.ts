/**
 * Starts a real worker process (the same entry point `npm start` uses) for a test, with its
 * own database, queue prefix and workspaces folder, and stops it afterwards.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const WORKER_ENTRY = path.join(REPO_ROOT, "apps/worker/src/main.ts");

export type WorkerHandle = {
  child: ChildProcess;
  logs: () => string;
  stop: () => Promise<void>;
  /** its SWITCHYARD_WORKSPACES_DIR */ workspaces: string;
};

/** `readyMs`: how long the worker may take to say it is ready (boots are slow on a loaded machine). */
export const startWorker = async (
  env: Record<string, string>,
  readyMs = 30_000,
): Promise<WorkerHandle> => {
  const workspaces = await mkdtemp(path.join(tmpdir(), "sy-ws-"));
  const child = spawn(process.execPath, ["--import", "tsx", WORKER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      REDIS_URL: process.env.REDIS_URL ?? "",
      SWITCHYARD_MASTER_KEY: process.env.SWITCHYARD_MASTER_KEY ?? "",
      SWITCHYARD_WORKSPACES_DIR: workspaces,
      // Workers of parallel test files share this host: each needs its own owner id and
      // step-uid range, or one worker's boot sweep would stop another's steps.
      SWITCHYARD_WORKER_ID: `test-${Math.random().toString(36).slice(2, 10)}`,
      // 16 uids each: the steps' 4 and the connectors' 8.
      SWITCHYARD_STEP_UID_BASE: String(100_000 + Math.floor(Math.random() * 50_000) * 16),
      WORKER_CONCURRENCY: "4",
      SWITCHYARD_CONNECTORS_MAX: "8",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: nobody would stop it.
      child.kill("SIGKILL");
      reject(new Error(`worker not ready in ${readyMs / 1000} s:\n${output}`));
    }, readyMs);
    const check = () => {
      if (output.includes('"worker ready"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    workspaces,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(t);
      }
      await rm(workspaces, { recursive: true, force: true });
    },
  };
};

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export const waitFor = async <T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const randomPrefix = () => `sy-test-${Math.random().toString(36).slice(2, 10)}`;

/** Processes of a run's sandboxes: their owner tag is `<worker>/<run>` or below it. */
export const processesOfRun = (runId: string) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .some((e) => e.startsWith("SWITCHYARD_SANDBOX_OWNER=") && e.includes(`/${runId}/`));
      } catch {
        return false;
      }
    });

/** The worker runs the built CLI inside the sandbox: build it when a source changed. */
export const buildSwitchyardCli = () => {
  const built = spawnSync(process.execPath, [path.join(REPO_ROOT, "packages/cli/bin/build.mjs")], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 240_000,
  });
  if (built.status !== 0) throw new Error(`building the CLI failed: ${built.stderr}`);
};

/**
 * Starts one step process inside the sandbox and hands back its stdio, a `stop()` that
 * follows the product's escalation (end stdin, SIGTERM every process of the sandbox,
 * SIGKILL after the grace period) and a promise of its exit. When that promise settles,
 * every process the step made is gone. Servers that speak over stdio (the MCP proxy,
 * agent CLIs) use this directly; `runSandboxed` builds on it.
 */
import { randomBytes } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { AppError } from "../errors";
import { buildLaunch, FD, SANDBOX_TAG } from "./build-launch";
import { launchProcess, type Launched } from "./launch-process";
import { prepareStepDirs } from "./prepare-step-dirs";
import { processStarted } from "./process-ledger";
import {
  killTagged,
  pidNamespaceOf,
  pidsInNamespace,
  processStartTime,
  runsAs,
  signalPid,
} from "./proc-scan";
import type { SandboxExit, SandboxHost, SandboxLevel, SandboxSpec } from "./sandbox-types";

export type StartOptions = { signal?: AbortSignal; timeoutMs?: number };

export type SandboxProcess = {
  level: SandboxLevel;
  sandboxId: string;
  /** Host pid of the launcher (the sandbox's outermost process). */
  pid: number;
  /** The private folders and working folder as the step sees them. */
  paths: { workspace: string; home: string; tmp: string; cwd: string };
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Stops the sandbox (idempotent); resolves once nothing of it is left. */
  stop: () => Promise<SandboxExit>;
  /** Settles when the step is gone. Consume stdout and stderr, or it waits 2 s for them. */
  exited: Promise<SandboxExit>;
};

const DEFAULT_GRACE_MS = 5000;
const CLOSE_WAIT_MS = 2000;
/** How many times (1 ms apart) to look for the sandbox's init to have exited before scanning. */
const INIT_EXIT_POLLS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const within = (promise: Promise<void>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((done) => (timer = setTimeout(done, ms))),
  ]).finally(() => clearTimeout(timer));
};

/** Starts a command in a sandbox and answers the running process. */
export const startSandboxed = async (
  host: SandboxHost,
  spec: SandboxSpec,
  options: StartOptions = {},
): Promise<SandboxProcess> => {
  const sandboxId = randomBytes(12).toString("hex");
  const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const launch = buildLaunch(host, spec, sandboxId, self);
  if (host.level !== "none") await prepareStepDirs(host, spec);
  const grace = spec.killGraceMs ?? DEFAULT_GRACE_MS;
  const started = performance.now();

  const ended = processStarted(host.ownerId);
  let child: Launched;
  try {
    child = await launchProcess({
      file: launch.file,
      args: launch.args,
      cwd: launch.cwd,
      env: launch.env,
      count: launch.files ? 7 : 3,
      inputs: launch.files
        ? {
            [FD.passwd]: launch.files.passwd,
            [FD.group]: launch.files.group,
            [FD.args]: launch.files.args,
          }
        : {},
      status: launch.files ? FD.status : undefined,
    });
  } catch (error) {
    // Not started: nothing of it to prove gone, so the owner's reap scans.
    ended(false);
    const message = error instanceof Error ? error.message : String(error);
    throw new AppError("SYSTEM.SANDBOX_UNAVAILABLE", `cannot start the sandbox: ${message}`, {
      cause: error,
    });
  }
  const { stdin, stdout, stderr, status } = child;
  stdin.on("error", () => undefined);
  const closedOne = (stream: Readable) =>
    new Promise<void>((resolve) =>
      stream.closed || stream.destroyed ? resolve() : stream.once("close", () => resolve()),
    );
  const closed = Promise.all([closedOne(stdout), closedOne(stderr)]).then(() => undefined);

  let nsInit: number | undefined;
  let namespace: string | undefined;
  let nsInitStart: string | undefined;
  let statusRead: Promise<void> = Promise.resolve();
  let markStarted: () => void = () => undefined;
  const sandboxStarted = new Promise<void>((resolve) => (markStarted = resolve));
  let gone = false;
  void child.exited.then(() => {
    gone = true;
    markStarted();
  });
  if (!status) markStarted();
  else {
    let buffered = "";
    statusRead = new Promise((done) => status.once("close", () => done()));
    status.on("data", (chunk: Buffer | string) => {
      buffered += chunk.toString();
      const m = /"child-pid"\s*:\s*(\d+)/.exec(buffered);
      if (m && nsInit === undefined) {
        nsInit = Number(m[1]);
        namespace = pidNamespaceOf(nsInit);
        nsInitStart = processStartTime(nsInit);
        markStarted();
      }
    });
  }

  let timedOut = false;
  let cancelled = false;
  let stopping = false;
  let killTimer: NodeJS.Timeout | undefined;

  // The sandbox's PID namespace is still ours only while its init is the same process: once
  // it has exited, the kernel may give the namespace's id to a new sandbox (another step's),
  // and signalling "every process in it" would reach that step.
  const namespaceIsOurs = () =>
    nsInit !== undefined &&
    nsInitStart !== undefined &&
    processStartTime(nsInit) === nsInitStart &&
    pidNamespaceOf(nsInit) === namespace;

  const killAll = (signal: NodeJS.Signals) => {
    if (gone) return;
    if (!namespaceIsOurs()) {
      signalPid(-child.pid, signal);
      return;
    }
    if (namespace !== undefined && nsInit !== undefined && signal !== "SIGKILL") {
      // Every process of the step, but not bwrap itself: its death would SIGKILL them all at once.
      for (const pid of pidsInNamespace(namespace)) if (pid !== nsInit) signalPid(pid, signal);
      return;
    }
    if (nsInit !== undefined) signalPid(nsInit, "SIGKILL");
    signalPid(-child.pid, signal);
  };

  const requestStop = () => {
    if (stopping) return;
    stopping = true;
    stdin.end();
    killAll("SIGTERM");
    killTimer = setTimeout(() => killAll("SIGKILL"), grace);
  };

  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          requestStop();
        }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    requestStop();
  };

  const exited = new Promise<SandboxExit>((resolve) => {
    void child.exited.then(({ exitCode, signal }) => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const durationMs = Math.round(performance.now() - started);
      // Whatever the step left goes with it: its group, then anything still carrying its tag.
      signalPid(-child.pid, "SIGKILL");
      // Every process of a confined step lives in the sandbox's PID namespace, and the kernel
      // ends a namespace's processes before its init finishes exiting (becomes a zombie). So
      // once that init is a zombie or gone, nothing of the step is left, and the scan of
      // /proc for the step's tag (a read of every process's environment) is needed only
      // when it does not get there soon (bwrap reports the exit as its init exits), or when
      // no init was reported. The report may still be unread: only bwrap holds the status
      // descriptor, so it ends as soon as the rest is read.
      const mayBeLeft = async () => {
        if (nsInit === undefined || nsInitStart === undefined) return true;
        for (let tries = 0; tries < INIT_EXIT_POLLS; tries++) {
          if (!runsAs(nsInit, nsInitStart)) return false;
          await sleep(1);
        }
        return true;
      };
      const finish = () =>
        resolve({
          level: host.level,
          warnings: host.warnings,
          exitCode,
          signal,
          timedOut,
          cancelled,
          durationMs,
        });
      const reaped = within(statusRead, CLOSE_WAIT_MS).then(async () => {
        const left = await mayBeLeft();
        if (left) await killTagged(SANDBOX_TAG, sandboxId);
        // Only an empty PID namespace proves the step left nothing; a tag scan does not (a
        // process may have dropped its tag), so the owner's reap scans by uid as well.
        ended(!left);
      });
      // Its output is read meanwhile; what a leftover still holds open is cut after 2 s.
      let giveUp: NodeJS.Timeout | undefined;
      const late = new Promise<void>((done) => {
        giveUp = setTimeout(() => {
          child.destroyPipes();
          done();
        }, CLOSE_WAIT_MS);
      });
      const drained = Promise.race([closed, late]).finally(() => clearTimeout(giveUp));
      void Promise.all([reaped, drained]).then(finish);
    });
  });
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });

  // bwrap reports its namespace's init once it exists: from then on a stop reaches every process.
  await sandboxStarted;
  return {
    level: host.level,
    sandboxId,
    pid: child.pid,
    paths: launch.paths,
    stdin,
    stdout,
    stderr,
    stop: () => {
      requestStop();
      return exited;
    },
    exited,
  };
};

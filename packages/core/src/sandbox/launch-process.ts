/**
 * Starts a sandbox's outermost process, here or through the spawn server (spawn-server.ts):
 * the same process, pipes, process group and exit either way. A process that asked for the
 * server (`useSpawnServer`, the worker at boot) gets it started on first use and again if
 * it has died; one that cannot have it starts its sandboxes itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { signalPid } from "./proc-scan";
import { SPAWN_SERVER } from "./spawn-server";

type LaunchRequest = {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How many pipes the process gets as its descriptors 0…count-1 (at least 3). */
  count: number;
  /** Written to these descriptors (UTF-8), which are then closed. */
  inputs: Record<number, string>;
  /** A descriptor whose output is read, as `status`. */
  status?: number;
};

type LaunchExit = { exitCode: number | null; signal: NodeJS.Signals | null };

export type Launched = {
  pid: number;
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  status?: Readable;
  exited: Promise<LaunchExit>;
  /** Cuts every pipe it has (what a leftover still holds open). */
  destroyPipes: () => void;
};

const launchHere = (request: LaunchRequest): Promise<Launched> =>
  new Promise((resolve, reject) => {
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      shell: false,
      stdio: Array<"pipe">(request.count).fill("pipe"),
    });
    const pipes = child.stdio as unknown as Array<(Writable & Readable) | null>;
    if (child.pid === undefined) {
      child.once("error", reject);
      return;
    }
    for (const [fd, text] of Object.entries(request.inputs))
      pipes[Number(fd)]?.on("error", () => undefined).end(text, "utf8");
    const status = request.status === undefined ? undefined : pipes[request.status];
    status?.on("error", () => undefined);
    resolve({
      pid: child.pid,
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      status: status ?? undefined,
      exited: new Promise((done) =>
        child.once("exit", (exitCode, signal) => done({ exitCode, signal })),
      ),
      destroyPipes: () => {
        for (const pipe of pipes) pipe?.destroy();
      },
    });
  });

type Waiting = {
  handles: Socket[];
  pid?: number;
  status?: PassThrough;
  ready: (launched: Launched) => void;
  fail: (error: Error) => void;
  exit?: (exit: LaunchExit) => void;
  launched?: Launched;
  exited?: boolean;
  statusEnded?: boolean;
};

type Message = {
  id: number;
  pid?: number;
  fd?: number;
  error?: string;
  status?: string;
  statusEnd?: boolean;
  exit?: [number | null, NodeJS.Signals | null];
};

type Server = { child: ChildProcess; waiting: Map<number, Waiting>; dead: boolean };

let wanted = false;
let server: Server | undefined;
let nextId = 0;

const startServer = (): Server => {
  const child = spawn(process.execPath, ["-e", SPAWN_SERVER], {
    // Nothing of this process's environment: each request brings its process's own.
    env: {},
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
  const started: Server = { child, waiting: new Map(), dead: false };
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors = (errors + String(chunk)).slice(-2000)));
  child.on("message", (message: Message, handle?: Socket) => {
    const entry = started.waiting.get(message.id);
    if (!entry) {
      handle?.destroy();
      return;
    }
    if (message.error !== undefined) {
      settled(started, message.id);
      entry.fail(new Error(message.error));
    } else if (message.fd !== undefined) {
      if (handle) entry.handles[message.fd] = handle;
      entry.pid = message.pid;
      if (message.fd === 2) resolveLaunched(started, message.id, entry);
    } else if (message.status !== undefined) entry.status?.write(message.status, "latin1");
    else if (message.statusEnd) {
      entry.status?.end();
      entry.statusEnded = true;
      if (entry.exited) settled(started, message.id);
    } else if (message.exit) {
      // The status may end after the exit: the entry is done with once both have come.
      entry.exited = true;
      if (!entry.status || entry.statusEnded) settled(started, message.id);
      entry.exit?.({ exitCode: message.exit[0], signal: message.exit[1] });
    }
  });
  child.once("exit", (code, signal) => {
    started.dead = true;
    if (server === started) server = undefined;
    // What it started is no longer anybody's child to report on: it goes, and reads as killed.
    const why = new Error(
      `the spawn server ended (exit ${code ?? signal ?? "?"})${errors ? `: ${errors.trim()}` : ""}`,
    );
    for (const entry of started.waiting.values()) {
      if (entry.pid !== undefined) signalPid(-entry.pid, "SIGKILL");
      if (entry.launched) {
        entry.status?.end();
        entry.exit?.({ exitCode: null, signal: "SIGKILL" });
      } else entry.fail(why);
    }
    started.waiting.clear();
  });
  // A send to a server that just died fails here; its exit (above) fails what waited on it.
  child.on("error", () => undefined);
  // The worker ends when its work does, not when this process would: the server keeps it
  // alive only while a sandbox it started has not ended.
  holdWhileBusy(started);
  (child.stderr as Socket | null)?.unref();
  return started;
};

const settled = (owner: Server, id: number) => {
  owner.waiting.delete(id);
  holdWhileBusy(owner);
};

const holdWhileBusy = (owner: Server) => {
  const channel = owner.child.channel as { ref?: () => void; unref?: () => void } | undefined;
  if (owner.waiting.size > 0) {
    owner.child.ref();
    channel?.ref?.();
  } else {
    owner.child.unref();
    channel?.unref?.();
  }
};

const resolveLaunched = (owner: Server, id: number, entry: Waiting) => {
  const [stdin, stdout, stderr] = entry.handles;
  if (!stdin || !stdout || !stderr) {
    // Never seen: a pipe that did not come is a process nobody could talk to.
    settled(owner, id);
    if (entry.pid !== undefined) signalPid(-entry.pid, "SIGKILL");
    for (const pipe of entry.handles) pipe?.destroy();
    entry.fail(new Error("the spawn server did not hand over the process's pipes"));
    return;
  }
  stdin.on("error", () => undefined);
  const launched: Launched = {
    pid: entry.pid!,
    stdin,
    stdout,
    stderr,
    status: entry.status,
    exited: new Promise((done) => (entry.exit = done)),
    destroyPipes: () => {
      for (const pipe of [stdin, stdout, stderr, entry.status]) pipe?.destroy();
    },
  };
  entry.launched = launched;
  if (owner.dead) entry.exit?.({ exitCode: null, signal: "SIGKILL" });
  entry.ready(launched);
};

const launchThere = (request: LaunchRequest): Promise<Launched> => {
  if (!server || server.dead) server = startServer();
  const owner = server;
  const id = ++nextId;
  return new Promise((ready, fail) => {
    owner.waiting.set(id, {
      handles: [],
      status: request.status === undefined ? undefined : new PassThrough(),
      ready,
      fail,
    });
    holdWhileBusy(owner);
    owner.child.send({ id, ...request });
  });
};

/** From now on this process's sandboxes are started by a spawn server (see spawn-server.ts). */
export const useSpawnServer = (use = true) => {
  wanted = use;
  if (!use && server) {
    server.child.disconnect();
    server = undefined;
  }
};

/** Starts the process; rejects if it could not be started. */
export const launchProcess = (request: LaunchRequest): Promise<Launched> =>
  wanted ? launchThere(request) : launchHere(request);

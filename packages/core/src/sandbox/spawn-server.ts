/**
 * The source of the spawn server: a small Node.js program the worker starts once, which
 * starts each sandbox for it. `fork()` copies the page tables of the process that calls
 * it, so a sandbox started by the worker itself (hundreds of MB) costs 10–15 ms of the
 * worker's one thread; started by this process (~50 MB) it costs about 1 ms, of another.
 * It is handed to `node -e`, so nothing is bound in, and it runs with no secret in its
 * environment: each request brings the environment of the process it starts.
 *
 * Protocol, over the Node.js IPC channel (JSON), the only way to reach it:
 * - in: `{id, file, args, cwd, env, count, inputs, status}`: start `file` in a process group
 *   of its own with `count` pipes as its descriptors 0…count-1; write each of `inputs`
 *   (descriptor → text, written as UTF-8) and close it; read descriptor `status`, if given.
 * - out, per request and in this order: `{id, pid, fd: 0|1|2}` with the pipe of that
 *   descriptor as the message's handle (the worker reads and writes them itself; this
 *   process stops reading before it hands them over), `{id, status}` chunks (their bytes as
 *   latin1, which keeps every byte whatever the chunks cut) and
 *   `{id, statusEnd}`, then `{id, exit: [code, signal]}`; or `{id, error}` if it did not start.
 *
 * It ends when the channel does (the worker went): every sandbox is started with
 * `--die-with-parent`, so theirs end with it, as they did when the worker was their parent.
 */
import { readFileSync } from "node:fs";
import { listPids } from "./proc-scan";

/** The source's first line: how `ps`, the tests and the benches tell the spawn server. */
export const SPAWN_SERVER_MARK = "// switchyard spawn server";

const source = `${SPAWN_SERVER_MARK}
"use strict";
const { spawn } = require("node:child_process");
process.on("disconnect", () => process.exit(0));
const send = (message, handle) => { if (process.connected) process.send(message, handle); };
process.on("message", (m) => {
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, shell: false, stdio: Array(m.count).fill("pipe") });
  } catch (error) {
    send({ id: m.id, error: String((error && error.message) || error) });
    return;
  }
  child.once("error", (error) => { if (child.pid === undefined) send({ id: m.id, error: String(error.message) }); });
  if (child.pid === undefined) return;
  // Nothing of the step's output may be read here: it goes, unread, with its pipe.
  for (const fd of [1, 2]) child.stdio[fd]._handle?.readStop();
  for (const [fd, text] of Object.entries(m.inputs)) {
    const pipe = child.stdio[Number(fd)];
    pipe.on("error", () => undefined);
    pipe.end(text, "utf8");
  }
  if (m.status !== undefined) {
    const status = child.stdio[m.status];
    status.on("error", () => undefined);
    status.on("data", (chunk) => send({ id: m.id, status: chunk.toString("latin1") }));
    status.once("close", () => send({ id: m.id, statusEnd: true }));
  }
  // A handle waits its turn behind the others' (each is acknowledged before the next goes), and
  // a child's exit destroys its stdin: the pipes are kept here, not by the child, until sent.
  const pipes = [child.stdin, child.stdout, child.stderr];
  child.stdin = null;
  for (const fd of [0, 1, 2]) send({ id: m.id, pid: child.pid, fd }, pipes[fd]);
  child.once("exit", (code, signal) => send({ id: m.id, exit: [code, signal] }));
});
`;

export const SPAWN_SERVER = source;

/** The spawn servers a process (by pid) has started: its children that are one. */
export const spawnServersOf = (parent: number) =>
  listPids().filter((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "latin1");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1");
      return status.includes(`\nPPid:\t${parent}\n`) && cmdline.includes(SPAWN_SERVER_MARK);
    } catch {
      return false;
    }
  });

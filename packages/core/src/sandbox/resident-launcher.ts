/**
 * The source of the resident launcher: a small Node.js program that runs inside a run's
 * sandbox (its uid, namespaces and folders) and starts each step there with a fork and
 * exec, instead of a sandbox per step. It is handed to `node -e`, so nothing is bound in.
 *
 * Protocol, over the launcher's stdin and stdout (both only the worker's):
 * - in: one JSON object a line, `{"op":"start","id","argv","env","cwd","stdin"}` or
 *   `{"op":"signal","id","signal"}`; the end of stdin ends the launcher and all it started.
 * - out: frames of a 1-byte kind, a 4-byte id and a 4-byte length (big-endian), then the
 *   payload: 1 stdout, 2 stderr, 3 exit (JSON `{exitCode, error?}`), 0 ready (id 0).
 *
 * Each step gets a process group of its own and its own tag (`SWITCHYARD_SANDBOX_ID`, set by
 * the worker). When its first process exits, its group and every process carrying its tag
 * are SIGKILLed until none is left, and when no other step is running, every process of the
 * sandbox but the launcher (and bwrap's init) as well: what a step leaves behind ends with it,
 * as it does when its sandbox ends. The exit is reported after that, and after its output
 * (2 s at most once it has exited). A signal that ends a step reads as 128 + its number, as
 * bwrap reports it.
 */
import { SANDBOX_TAG } from "./build-launch";

const source = (tagKey: string) => `"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const TAG = ${JSON.stringify(tagKey)};
const SELF = process.pid;
const steps = new Map();
const frame = (kind, id, payload) => {
  const head = Buffer.alloc(9);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(id, 1);
  head.writeUInt32BE(payload.length, 5);
  fs.writeSync(1, Buffer.concat([head, payload]));
};
const writeAll = (kind, id, chunk) => {
  for (let at = 0; at < chunk.length; at += 65536) frame(kind, id, chunk.subarray(at, at + 65536));
};
const others = () => {
  const pids = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === SELF || pid === 1) continue;
    try {
      const stat = fs.readFileSync("/proc/" + name + "/stat", "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
    } catch { continue; }
    pids.push(pid);
  }
  return pids;
};
const tagged = (entry) => others().filter((pid) => {
  try { return fs.readFileSync("/proc/" + pid + "/environ", "latin1").split("\\0").includes(entry); } catch { return false; }
});
const kill = (pid, signal) => { try { process.kill(pid, signal); return true; } catch { return false; } };
const nap = new Int32Array(new SharedArrayBuffer(4));
const killUntilGone = (find) => {
  for (let round = 0; round < 200; round++) {
    const pids = find();
    if (pids.length === 0) return;
    for (const pid of pids) kill(pid, "SIGKILL");
    Atomics.wait(nap, 0, 0, 5);
  }
};
const signalStep = (step, signal) => {
  kill(-step.child.pid, signal);
  for (const pid of tagged(step.entry)) kill(pid, signal);
};
const finish = (id, step, exitCode) => {
  if (step.done) return;
  step.done = true;
  clearTimeout(step.late);
  steps.delete(id);
  frame(3, id, Buffer.from(JSON.stringify({ exitCode })));
};
const start = (m) => {
  const entry = TAG + "=" + m.env[TAG];
  let child;
  try {
    child = spawn(m.argv[0], m.argv.slice(1), { cwd: m.cwd, env: m.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    frame(3, m.id, Buffer.from(JSON.stringify({ exitCode: null, error: String(error && error.message || error) })));
    return;
  }
  const step = { child, entry, done: false, late: undefined };
  steps.set(m.id, step);
  let open = 2;
  let exitCode;
  const maybeFinish = () => { if (open === 0 && exitCode !== undefined) finish(m.id, step, exitCode); };
  child.stdout.on("data", (c) => writeAll(1, m.id, c));
  child.stderr.on("data", (c) => writeAll(2, m.id, c));
  child.stdout.once("close", () => { open--; maybeFinish(); });
  child.stderr.once("close", () => { open--; maybeFinish(); });
  child.stdin.on("error", () => undefined);
  child.stdin.end(m.stdin || "");
  child.once("error", (error) => {
    steps.delete(m.id);
    if (!step.done) { step.done = true; frame(3, m.id, Buffer.from(JSON.stringify({ exitCode: null, error: String(error.message) }))); }
  });
  child.once("exit", (code, signal) => {
    if (child.pid === undefined) return;
    exitCode = code !== null ? code : 128 + (os.constants.signals[signal] || 0);
    killUntilGone(() => { kill(-child.pid, "SIGKILL"); return tagged(entry); });
    const alone = [...steps.values()].every((s) => s === step || s.done);
    if (alone) killUntilGone(others);
    step.late = setTimeout(() => { child.stdout.destroy(); child.stderr.destroy(); finish(m.id, step, exitCode); }, 2000);
    maybeFinish();
  });
};
let buffered = "";
process.stdin.on("data", (chunk) => {
  buffered += chunk.toString("utf8");
  let nl;
  while ((nl = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (!line) continue;
    const m = JSON.parse(line);
    if (m.op === "start") start(m);
    else if (m.op === "signal") { const s = steps.get(m.id); if (s && !s.done) signalStep(s, m.signal); }
  }
});
process.stdin.on("end", () => { killUntilGone(others); process.exit(0); });
frame(0, 0, Buffer.alloc(0));
`;

export const RESIDENT_LAUNCHER = source(SANDBOX_TAG);

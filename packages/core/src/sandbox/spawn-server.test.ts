/**
 * Sandboxes started by the spawn server (as the worker's are): the same process, pipes and
 * exit as started here, nothing of the server's channel inside, nothing left when they end,
 * and a server that dies takes its sandboxes with it and is started again.
 * (A worker SIGKILLed while the server holds its sandbox: sandbox-stop.test.ts.)
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  detectForTest,
  isRoot,
  makeStepDirs,
  ownedBy,
  removeStepDirs,
  sh,
  spec,
  waitNoneLeft,
  withOwner,
  type StepDirs,
} from "@switchyard/testing/sandbox";
import { finished } from "node:stream/promises";
import { launchProcess, useSpawnServer } from "./launch-process";
import { procScans } from "./proc-scan";
import { trackOwner } from "./process-ledger";
import { reapOwner } from "./reap-owner";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";
import { SPAWN_SERVER_MARK } from "./spawn-server";
import { startSandboxed } from "./start-sandboxed";

const UID = 61300;
let base: SandboxHost;
let dirs: StepDirs;
beforeAll(async () => {
  base = await detectForTest(UID);
  dirs = await makeStepDirs();
  useSpawnServer();
});
afterAll(async () => {
  useSpawnServer(false);
  await removeStepDirs(dirs);
});

const parentOf = (pid: number) =>
  Number(/\nPPid:\t(\d+)\n/.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1]);
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "latin1");

describe("a sandbox started by the spawn server", () => {
  it("runs as one started here: output, input and exit code", async () => {
    const r = await runSandboxed(
      withOwner(base),
      spec(dirs, UID, sh("read line; echo out:$line; echo err >&2; exit 3")),
      { stdin: "hello\n" },
    );
    expect(r).toMatchObject({ exitCode: 3, stdout: "out:hello\n", stderr: "err\n" });
  });

  it("passes text beyond Latin-1 in a step's command and environment as it is, started here or by the server", async () => {
    const text = "é ß → 🙂 \u202e 漢字";
    const run = () =>
      runSandboxed(
        withOwner(base),
        spec(dirs, UID, sh(`printf '%s|%s' '${text}' "$WORD"`), { env: { WORD: text } }),
      );
    const byServer = await run();
    useSpawnServer(false);
    const here = await run().finally(() => useSpawnServer());
    for (const r of [byServer, here])
      expect(r).toMatchObject({ exitCode: 0, stdout: `${text}|${text}` });
  });

  it("hands each of many started at once its own pipes, even when it ended before they were handed over", async () => {
    // Each pipe is acknowledged before the next goes, and this process is too busy to
    // acknowledge any for a while (as a loaded worker is): most of these have exited, which
    // destroys a child's stdin, by the time their turn comes.
    const starting = Array.from({ length: 24 }, (_, i) =>
      runSandboxed(withOwner(base), spec(dirs, UID, sh(`echo ${i}; exit ${i % 3}`))),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const until = Date.now() + 1500; Date.now() < until;);
    const results = await Promise.all(starting);
    expect(results.map((r) => [r.stdout, r.exitCode])).toEqual(
      Array.from({ length: 24 }, (_, i) => [`${i}\n`, i % 3]),
    );
  });

  it("relays a process's status to its end, whether that comes before its exit or after", async () => {
    // The server reads the status descriptor and reports its end and the exit as they
    // come: either may be first, and neither may be lost.
    const launched = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        launchProcess({
          file: "/bin/sh",
          args: ["-c", `echo status-${i} >&5; exec 5>&-; exit 0`],
          cwd: "/",
          env: { PATH: "/usr/bin:/bin" },
          count: 7,
          inputs: {},
          status: 5,
        }),
      ),
    );
    const statuses = await Promise.all(
      launched.map(async (p) => {
        let text = "";
        p.status!.on("data", (chunk: Buffer) => (text += chunk.toString()));
        await Promise.all([p.exited, finished(p.status!)]);
        p.destroyPipes();
        return text;
      }),
    );
    expect(statuses).toEqual(Array.from({ length: 16 }, (_, i) => `status-${i}\n`));
  });

  it("is the server's child, not this process's, and holds no descriptor of the server's channel", async () => {
    const host = withOwner(base);
    const proc = await startSandboxed(host, spec(dirs, UID, sh("ls /proc/self/fd; sleep 1000")));
    try {
      const server = parentOf(proc.pid);
      expect(server).not.toBe(process.pid);
      expect(parentOf(server)).toBe(process.pid);
      expect(cmdlineOf(server)).toContain(SPAWN_SERVER_MARK);
      let listed = "";
      proc.stdout.on("data", (chunk: Buffer) => (listed += chunk.toString()));
      for (let i = 0; i < 100 && !listed.includes("\n2\n"); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // Its stdio, and the descriptor `ls` opened to list them.
      expect(listed.trim().split("\n")).toEqual(["0", "1", "2", "3"]);
    } finally {
      await proc.stop();
    }
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("stops at its timeout, leaves nothing, and proves it without a scan of /proc", async (ctx) => {
    if (base.level === "none") ctx.skip();
    const host = withOwner(base);
    const untrack = trackOwner(host.ownerId);
    const r = await runSandboxed(host, spec(dirs, UID, sh("sleep 1000 & sleep 1000")), {
      timeoutMs: 300,
    });
    expect(r.timedOut).toBe(true);
    const scans = procScans();
    expect(await reapOwner(host.ownerId, { uid: isRoot ? UID : undefined })).toEqual([]);
    expect(procScans()).toBe(scans);
    expect(ownedBy(host.ownerId)).toEqual([]);
    untrack();
  });

  it("that cannot start is refused with SYSTEM.SANDBOX_UNAVAILABLE", async () => {
    const host: SandboxHost = {
      ...withOwner(base),
      level: "none",
      tools: { ...base.tools, setpriv: "/nonexistent/setpriv" },
    };
    await expect(startSandboxed(host, spec(dirs, UID, ["/bin/true"]))).rejects.toThrow(
      expect.objectContaining({
        code: "SYSTEM.SANDBOX_UNAVAILABLE",
        message: expect.stringContaining("ENOENT") as string,
      }) as Error,
    );
  });

  it("ends, read as killed, when the server dies; the next one starts a new server", async (ctx) => {
    if (base.level === "none") ctx.skip();
    const host = withOwner(base);
    const proc = await startSandboxed(host, spec(dirs, UID, ["/bin/sleep", "1000"]));
    const server = parentOf(proc.pid);
    process.kill(server, "SIGKILL");
    expect(await proc.exited).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(await waitNoneLeft(host.ownerId, 5000)).toEqual([]);
    const next = await startSandboxed(withOwner(base), spec(dirs, UID, sh("echo again")));
    expect(parentOf(next.pid)).not.toBe(server);
    let out = "";
    next.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect((await next.exited).exitCode).toBe(0);
    expect(out).toBe("again\n");
  });
});

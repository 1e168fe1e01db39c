/**
 * The per-run resident launcher, with real bwrap: each step keeps its environment, working
 * folder, output, exit code, timeout and cancellation, runs as the run's uid inside the
 * run's sandbox, and leaves nothing once it has ended; closing leaves nothing at all.
 */
import { readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStepLauncher, type StepLauncher } from "./open-step-launcher";
import { OWNER_TAG } from "./build-launch";
import { pidsWithEnv } from "./proc-scan";
import type { SandboxHost } from "./sandbox-types";
import {
  detectForTest,
  isRoot,
  makeStepDirs,
  removeStepDirs,
  sh,
  waitNoneLeft,
  withOwner,
  type StepDirs,
} from "@switchyard/testing/sandbox";

const UID = 61300;
let base: SandboxHost;
let dirs: StepDirs;
beforeAll(async () => {
  base = await detectForTest(UID);
  dirs = await makeStepDirs();
});
afterAll(() => removeStepDirs(dirs));

const open = (host: SandboxHost) =>
  openStepLauncher(host, {
    workspace: dirs.workspace,
    home: dirs.home,
    tmp: dirs.tmp,
    network: false,
    uid: isRoot ? UID : undefined,
  });

/** Processes of the owner other than the launcher's own sandbox (bwrap, its init, the launcher). */
const stepProcesses = (ownerId: string) =>
  pidsWithEnv(OWNER_TAG, ownerId).filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("-e\0");
    } catch {
      return false; // gone
    }
  });

describe("a run's resident step launcher", () => {
  let host: SandboxHost;
  let launcher: StepLauncher;
  beforeAll(() => {
    host = withOwner(base);
    launcher = open(host);
  });
  afterAll(() => launcher.close());

  it("runs steps one after another in the run's sandbox, each with its own environment, folder and exit code", async () => {
    await mkdir(path.join(dirs.workspace, "sub"), { recursive: true });
    const a = await launcher.run({
      argv: sh('echo "$GREETING from $(pwd) as $(id -u)"; echo oops >&2; exit 3'),
      env: { GREETING: "hello" },
      cwd: "sub",
    });
    expect(a.exitCode).toBe(3);
    expect(a.stdout).toBe(`hello from /workspace/sub as ${isRoot ? UID : process.getuid?.()}\n`);
    expect(a.stderr).toBe("oops\n");
    const b = await launcher.run({
      argv: sh('echo "[$GREETING]"; echo $HOME $TMPDIR; echo data > note; hostname'),
    });
    expect(b.exitCode).toBe(0);
    expect(b.stdout).toBe("[]\n/home/step /tmp\nsandbox\n");
    expect(await readFile(path.join(dirs.workspace, "note"), "utf8")).toBe("data\n");
  });

  it("is confined like a step sandbox: no network, no host files, its own PID namespace", async () => {
    const r = await launcher.run({
      argv: sh(
        "ls /root 2>&1; cat /etc/shadow 2>&1; ip -o link 2>/dev/null | wc -l; ls /proc | grep -c '^[0-9]'",
      ),
    });
    expect(r.stdout).toMatch(/No such file|cannot access/);
    expect(r.stdout).not.toMatch(/root:[^:]*:/);
    const pids = Number(r.stdout.trim().split("\n").at(-1));
    // bwrap's init, the launcher, this step's shell and its pipeline: nothing of the host
    expect(pids).toBeLessThan(10);
  });

  it("caps the output it keeps and counts the rest", async () => {
    const r = await launcher.run({
      argv: sh("head -c 300000 /dev/zero | tr '\\0' x"),
      outputBytes: 1000,
    });
    expect(r.stdout.length).toBe(1000);
    expect(r.stdoutBytes).toBe(300000);
    expect(r.truncated).toBe(true);
  });

  it("feeds stdin and streams output as it comes", async () => {
    const chunks: string[] = [];
    const r = await launcher.run(
      { argv: ["/bin/cat"] },
      { stdin: "piped in", onStdout: (c) => chunks.push(c.toString()) },
    );
    expect(r.stdout).toBe("piped in");
    expect(chunks.join("")).toBe("piped in");
  });

  it("kills what a step left running when it ends, detached or not", async () => {
    const r = await launcher.run({
      argv: sh(
        "setsid nohup sleep 1000 >/dev/null 2>&1 & setsid env -i /bin/sh -c 'sleep 1000' >/dev/null 2>&1 & sleep 0.5; echo left",
      ),
    });
    expect(r.stdout).toBe("left\n");
    expect(stepProcesses(host.ownerId)).toEqual([]);
    // The untagged one is seen only from inside: the next step lists the sandbox's processes.
    const seen = await launcher.run({
      argv: sh("for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done"),
    });
    expect(seen.exitCode).toBe(0);
    expect(seen.stdout).not.toContain("sleep");
    expect(seen.stdout).toContain("bwrap");
  });

  it("stops a step at its timeout: SIGTERM first, and nothing of it is left", async () => {
    const r = await launcher.run(
      { argv: sh("trap 'echo got-term; exit 7' TERM; sleep 1000 & wait"), killGraceMs: 5000 },
      { timeoutMs: 700 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toContain("got-term");
    expect(r.exitCode).toBe(7);
    expect(stepProcesses(host.ownerId)).toEqual([]);
  });

  it("SIGKILLs a step that ignores SIGTERM after the grace period", async () => {
    const r = await launcher.run(
      { argv: sh("trap '' TERM; echo up; while :; do sleep 1; done"), killGraceMs: 500 },
      { timeoutMs: 300 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(137);
    expect(r.durationMs).toBeGreaterThanOrEqual(700);
    expect(stepProcesses(host.ownerId)).toEqual([]);
  });

  it("cancels one step through its AbortSignal while another keeps running", async () => {
    const controller = new AbortController();
    const slow = launcher.run({ argv: sh("sleep 1; echo survived") });
    const cancelled = launcher.run({ argv: sh("sleep 1000") }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const c = await cancelled;
    expect(c.cancelled).toBe(true);
    expect(c.exitCode).toBe(143);
    const s = await slow;
    expect(s.stdout).toBe("survived\n");
    expect(stepProcesses(host.ownerId)).toEqual([]);
  });

  it("refuses a cwd outside the workspace and reserved variables, as a sandbox per step does", async () => {
    await expect(launcher.run({ argv: ["/bin/true"], cwd: "../.." })).rejects.toThrow(
      /leaves the workspace/,
    );
    await expect(launcher.run({ argv: ["/bin/true"], env: { [OWNER_TAG]: "x" } })).rejects.toThrow(
      /reserved/,
    );
  });

  it("fails a command that does not exist with a clear error", async () => {
    const r = await launcher.run({ argv: ["/no/such/program"] }).catch((error: unknown) => error);
    expect(String(r)).toMatch(/no\/such\/program/);
  });
});

describe("closing and restarting the launcher", () => {
  it("starts again when a step has killed it, and closing leaves nothing of the run", async () => {
    const host = withOwner(base);
    const launcher = open(host);
    const killer = await launcher
      .run({ argv: sh("kill -9 $PPID; sleep 1") })
      .catch((error: unknown) => error);
    expect(String(killer)).toMatch(/launcher ended/);
    expect((await launcher.run({ argv: sh("echo again") })).stdout).toBe("again\n");
    const running = launcher.run({ argv: sh("sleep 1000") });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await launcher.close();
    await expect(running).rejects.toThrow(/launcher ended/);
    expect(await waitNoneLeft(host.ownerId, 2000)).toEqual([]);
    await expect(launcher.run({ argv: ["/bin/true"] })).rejects.toThrow(/closed/);
  });
});

/**
 * Stopping and leftovers: timeouts, cancellation, the SIGTERM-then-SIGKILL escalation,
 * detached children, fork bombs and a worker SIGKILLed mid-step. Every case ends by
 * scanning /proc for the step's tag and finding nothing. And reaping a run's owner, with a
 * scan of /proc only where its processes' PID namespaces do not prove them gone.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_TAG } from "./build-launch";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";
import { startSandboxed } from "./start-sandboxed";
import { procScans } from "./proc-scan";
import { spawnServersOf } from "./spawn-server";
import { trackOwner } from "./process-ledger";
import { reapOwner, runOwnerId } from "./reap-owner";
import { sweepLeftovers } from "./sweep-leftovers";
import {
  detectForTest,
  HOLD_STEP,
  isRoot,
  makeStepDirs,
  newOwnerId,
  ownedBy,
  removeStepDirs,
  sh,
  spec,
  waitNoneLeft,
  withOwner,
  type StepDirs,
} from "@switchyard/testing/sandbox";

const UID = 61200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runs = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "latin1").includes(") Z ");
  } catch {
    return false;
  }
};
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, "../../../..");

let base: SandboxHost;
let dirs: StepDirs;
beforeAll(async () => {
  base = await detectForTest(UID);
  dirs = await makeStepDirs();
});
afterAll(() => removeStepDirs(dirs));

// A classic fork bomb, started in one fork so the step's own shell never has to fork
// again; that shell then spins for 2 s on builtins and reports.
const BOMB =
  "bomb() { bomb | bomb & }; (bomb) & SECONDS=0; while [ $SECONDS -lt 2 ]; do :; done; echo host still answers";

describe("stopping a sandboxed step", () => {
  it("stops a never-ending command at its timeout and leaves nothing", async () => {
    const host = withOwner(base);
    const r = await runSandboxed(host, spec(dirs, UID, sh("sleep 1000")), { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).not.toBe(0);
    expect(r.durationMs).toBeGreaterThanOrEqual(900);
    expect(r.durationMs).toBeLessThan(6000);
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("sends SIGTERM first, so a step can clean up", async () => {
    const host = withOwner(base);
    const script = "trap 'echo got-term; exit 7' TERM; echo up; sleep 1000 & wait";
    const r = await runSandboxed(host, spec(dirs, UID, sh(script), { killGraceMs: 10_000 }), {
      timeoutMs: 1000,
    });
    expect(r.stdout).toContain("got-term");
    expect(r.exitCode).toBe(7);
    expect(r.durationMs).toBeLessThan(8000);
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("SIGKILLs a step that ignores SIGTERM 5 s later", async () => {
    const host = withOwner(base);
    const script = "trap '' TERM; echo up; while :; do sleep 1; done";
    const r = await runSandboxed(host, spec(dirs, UID, sh(script), { killGraceMs: undefined }), {
      timeoutMs: 500,
    });
    expect(r.timedOut).toBe(true);
    expect(r.durationMs).toBeGreaterThanOrEqual(5000);
    expect(r.durationMs).toBeLessThan(12_000);
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("stops when cancelled through its AbortSignal", async () => {
    const host = withOwner(base);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const r = await runSandboxed(host, spec(dirs, UID, sh("sleep 1000")), {
      signal: controller.signal,
    });
    expect(r.cancelled).toBe(true);
    expect(r.durationMs).toBeLessThan(6000);
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("kills a child that detached with setsid and nohup when the step ends", async () => {
    const host = withOwner(base);
    const r = await runSandboxed(
      host,
      spec(
        dirs,
        UID,
        sh(
          "setsid nohup sleep 1000 >/dev/null 2>&1 & nohup sh -c 'sleep 1000' >/dev/null 2>&1 & echo left",
        ),
      ),
      { timeoutMs: 20_000 },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("left");
    expect(await waitNoneLeft(host.ownerId, 2000)).toEqual([]);
  });

  // The process limit counts the step uid's processes: only meaningful with a uid of its own.
  it.skipIf(!isRoot)(
    "stops a fork bomb at the process limit, and nothing of it survives the step",
    async () => {
      const host = withOwner(base);
      const limit = 64;
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, ownedBy(host.ownerId).length)), 100);
      const r = await runSandboxed(
        host,
        spec(dirs, UID, ["/bin/bash", "-c", BOMB], { limits: { processes: limit } }),
        { timeoutMs: 20_000 },
      ).finally(() => clearInterval(sampler));
      expect(r.stderr).toMatch(/fork: .*Resource temporarily unavailable/);
      expect(r.stdout).toContain("host still answers");
      // bwrap's own two processes plus the step's: never past the limit
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(limit + 2);
      expect(await waitNoneLeft(host.ownerId, 3000)).toEqual([]);
    },
  );
});

const holdStep = (host: SandboxHost, spawnServer = false) => {
  const script = "setsid nohup sleep 300 >/dev/null 2>&1 & echo ready; sleep 300";
  const arg = JSON.stringify({ host, spec: spec(dirs, UID, sh(script)), spawnServer });
  const driver = spawn(process.execPath, ["--import", "tsx", HOLD_STEP, arg], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    let out = "";
    driver.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("ready")) resolve();
    });
    driver.once("exit", (code) => reject(new Error(`driver exited early (${code})`)));
  });
  return { driver, ready };
};

describe("a worker SIGKILLed mid-step", () => {
  it("leaves no process behind at a confined level (checked by scanning /proc for the tag)", async () => {
    const host = withOwner(base);
    const { driver, ready } = holdStep(host);
    await ready;
    expect(ownedBy(host.ownerId).length).toBeGreaterThanOrEqual(3);
    driver.kill("SIGKILL");
    expect(await waitNoneLeft(host.ownerId, 5000)).toEqual([]);
  });

  it("whose sandboxes a spawn server started, leaves nothing either, the server included", async (ctx) => {
    if (base.level === "none") ctx.skip();
    const host = withOwner(base);
    const { driver, ready } = holdStep(host, true);
    await ready;
    const servers = spawnServersOf(driver.pid!);
    expect(servers).toHaveLength(1);
    expect(ownedBy(host.ownerId).length).toBeGreaterThanOrEqual(3);
    driver.kill("SIGKILL");
    expect(await waitNoneLeft(host.ownerId, 5000)).toEqual([]);
    for (let i = 0; i < 100 && runs(servers[0]!); i++) await sleep(50);
    expect(runs(servers[0]!)).toBe(false);
  });

  it("at level none, leaves a detached child that sweepLeftovers then kills", async () => {
    const host: SandboxHost = { ...withOwner(base), level: "none" };
    const { driver, ready } = holdStep(host);
    await ready;
    driver.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const left = ownedBy(host.ownerId);
    expect(left.length).toBeGreaterThanOrEqual(1);
    const { killed } = await sweepLeftovers(host.ownerId);
    expect(killed).toEqual(expect.arrayContaining(left));
    expect(await waitNoneLeft(host.ownerId, 2000)).toEqual([]);
  });

  it("reapOwner ends a run's processes, and sweepLeftovers those of every run of the owner", async () => {
    const owner = newOwnerId();
    const runs = ["run-a", "run-b"].map((id) => ({ ...base, ownerId: runOwnerId(owner, id) }));
    const procs = await Promise.all(
      runs.map((h) => startSandboxed(h, spec(dirs, UID, ["/bin/sleep", "1000"]))),
    );
    const exits = procs.map((p) => p.exited);
    expect(ownedBy(runs[0]!.ownerId).length).toBeGreaterThanOrEqual(1);
    expect(await reapOwner(runs[0]!.ownerId)).toEqual([]);
    expect(ownedBy(runs[0]!.ownerId)).toEqual([]);
    // The other run of the same owner is not the reaped run's business.
    expect(ownedBy(runs[1]!.ownerId).length).toBeGreaterThanOrEqual(1);
    const { killed } = await sweepLeftovers(owner);
    expect(killed.length).toBeGreaterThanOrEqual(1);
    expect(ownedBy(runs[1]!.ownerId)).toEqual([]);
    await Promise.all(exits);
  });

  it("sweepLeftovers touches nothing of another owner", async () => {
    const host = withOwner(base);
    const proc = await startSandboxed(host, spec(dirs, UID, ["/bin/sleep", "1000"]));
    try {
      let mine = ownedBy(host.ownerId);
      for (let i = 0; i < 100 && mine.length < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        mine = ownedBy(host.ownerId);
      }
      expect(mine.length).toBeGreaterThanOrEqual(3);
      const { killed } = await sweepLeftovers(newOwnerId());
      expect(killed).toEqual([]);
      expect(ownedBy(host.ownerId)).toEqual(expect.arrayContaining(mine));
    } finally {
      await proc.stop();
    }
    expect(ownedBy(host.ownerId)).toEqual([]);
  });
});

// Reaping without reading /proc: a confined step runs in its own PID namespace, and once its
// init has finished exiting the kernel has ended every process in it. A tracked owner all of
// whose processes ended that way is reaped without a scan; anything else is proven by one.
/** What `reap` returns, and whether it read /proc to answer. */
const scanned = async (reap: () => Promise<number[]>) => {
  const before = procScans();
  const left = await reap();
  return { left, scanned: procScans() > before };
};

describe("reaping an owner", () => {
  it("needs no scan of /proc once every step of a run ended in its PID namespace", async (ctx) => {
    if (base.level === "none") ctx.skip();
    const run = runOwnerId(newOwnerId(), "run-a");
    const untrack = trackOwner(run);
    // Two steps, one of them under a sub-owner as an agent step's proxy sandbox is.
    const first = await runSandboxed({ ...base, ownerId: run }, spec(dirs, UID, ["/bin/true"]));
    expect(first.exitCode).toBe(0);
    const second = await runSandboxed(
      { ...base, ownerId: `${run}/proxy` },
      spec(dirs, UID, ["/bin/sh", "-c", "sleep 1000 & exit 0"]),
    );
    expect(second.exitCode).toBe(0);
    expect(await scanned(() => reapOwner(run, { uid: UID }))).toEqual({
      left: [],
      scanned: false,
    });
    // What the namespace's end ended is gone indeed: the background sleep with it.
    expect(ownedBy(run)).toEqual([]);
    expect(ownedBy(`${run}/proxy`)).toEqual([]);
    // Forgotten, the owner is an owner like any other: a reap of it scans.
    untrack();
    expect(await scanned(() => reapOwner(run))).toEqual({ left: [], scanned: true });
  });

  it("scans, and ends it, while a step of the run still runs", async () => {
    const host = withOwner(base);
    trackOwner(host.ownerId);
    const proc = await startSandboxed(host, spec(dirs, UID, ["/bin/sleep", "1000"]));
    expect(await scanned(() => reapOwner(host.ownerId))).toEqual({ left: [], scanned: true });
    expect(ownedBy(host.ownerId)).toEqual([]);
    await proc.exited;
    // Once the scan has proven it, the owner is clean: the next reap reads nothing.
    expect(await scanned(() => reapOwner(host.ownerId))).toEqual({ left: [], scanned: false });
  });

  it("scans after a step at level none, which no PID namespace held", async () => {
    const host: SandboxHost = { ...withOwner(base), level: "none" };
    trackOwner(host.ownerId);
    const r = await runSandboxed(host, spec(dirs, UID, ["/bin/true"]));
    expect(r.exitCode).toBe(0);
    expect(await scanned(() => reapOwner(host.ownerId))).toEqual({ left: [], scanned: true });
  });

  it("scans for an owner it never saw start, and ends what carries its tag", async () => {
    const owner = newOwnerId();
    const stray = spawn("/bin/sleep", ["1000"], {
      env: { PATH: "/usr/bin:/bin", [OWNER_TAG]: owner },
      stdio: "ignore",
    });
    const gone = new Promise((resolve) => stray.once("exit", resolve));
    await new Promise((resolve) => stray.once("spawn", resolve));
    expect(await scanned(() => reapOwner(owner))).toEqual({ left: [], scanned: true });
    expect(await gone).toBeDefined();
  });
});

/**
 * What a run leaves when it ends, through the real worker: a parallel branch keeps
 * swapping folders of its workspace for symlinks to a root-owned folder outside while its
 * sibling fails with an engine error. Once the run has ended, none of its processes may
 * live on, its folder must be gone, the folder outside untouched, and its step uid free
 * for the next run.
 */
import { readdirSync, readFileSync } from "node:fs";
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OWNER_TAG } from "@switchyard/core/sandbox";
import { saveWorkflowVersion } from "@switchyard/db";
import { runsDirOf } from "../apps/worker/src/sandbox-boot";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";

const RUNS = Number(process.env.CLEANUP_RUNS ?? 20);
const root = process.getuid?.() === 0;
const workerId = `cleanup-${Math.random().toString(36).slice(2, 10)}`;
const uidBase = 100_000 + Math.floor(Math.random() * 50_000) * 16;

let stack: RunStack;
let workspaces: string;
let canary: string;
let leftover: string;

/** Every file below `dir` with its content, as a sorted listing. */
const snapshot = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out.push(
      entry.isFile()
        ? `${path.relative(dir, full)}=${await readFile(full, "utf8")}`
        : path.relative(dir, full),
    );
  }
  return out.sort();
};

/** Processes of this worker's sandboxes (its owner tag, or a run's tag below it) or of its step uid. */
const leftovers = (): string[] => {
  const found: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const owner = readFileSync(`/proc/${name}/environ`, "latin1")
        .split("\0")
        .find((e) => e.startsWith(`${OWNER_TAG}=`))
        ?.slice(OWNER_TAG.length + 1);
      if (owner === workerId || owner?.startsWith(`${workerId}/`))
        found.push(`${name} tagged ${owner}`);
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, "utf8"))?.[1];
      if (Number(uid) === uidBase) found.push(`${name} as uid ${uid}`);
    } catch {
      // gone while we looked
    }
  }
  return found;
};

/** Every path below the workspaces folder that names one of `runIds`. */
const runFolders = async (runIds: string[]) =>
  (await readdir(workspaces, { recursive: true })).filter((p) =>
    runIds.some((id) => p.split("/").includes(id)),
  );

beforeAll(async () => {
  workspaces = await mkdtemp(path.join(tmpdir(), "sy-cleanup-ws-"));
  canary = await mkdtemp(path.join(tmpdir(), "sy-canary-"));
  await chmod(canary, 0o755);
  await mkdir(path.join(canary, "sub"));
  for (const f of ["keep", "f", "sub/keep"]) await writeFile(path.join(canary, f), `canary ${f}`);
  // A run folder a previous worker of this owner could not remove, symlinks to the canary and all.
  leftover = path.join(runsDirOf(workspaces, workerId), "run-left-behind");
  await mkdir(path.join(leftover, "workspace/d"), { recursive: true });
  await writeFile(path.join(leftover, "workspace/d/keep"), "x");
  await symlink(canary, path.join(leftover, "workspace/to-canary"));
  await symlink(path.join(canary, "keep"), path.join(leftover, "workspace/d/f"));
  if (root) await chown(path.join(leftover, "workspace"), uidBase, uidBase);
  stack = await openRunStack({
    SWITCHYARD_WORKSPACES_DIR: workspaces,
    SWITCHYARD_WORKER_ID: workerId,
    SWITCHYARD_STEP_UID_BASE: String(uidBase),
    // One run at a time and one step uid: a uid not given back fails the next run.
    WORKER_CONCURRENCY: "1",
  });
});
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await rm(workspaces, { recursive: true, force: true });
  await rm(canary, { recursive: true, force: true });
});

const RACE = () => `name: race-cleanup
states:
  initial: fan
  fan:
    type: parallel
    parallel: [racer, failer]
    on_success: done
    on_failure: failed
  racer:
    type: step
    command: |
      while :; do
        for n in 1 2 3 4 5 6; do
          rm -f d$n; mkdir -p d$n/sub; echo x > d$n/keep; echo x > d$n/f; echo x > d$n/sub/keep
          mv d$n t$n; ln -s ${canary} d$n; ln -s ${canary}/sub t$n/sub2
          rm d$n; mv t$n d$n
        done
      done
  failer:
    type: step
    hooks:
      pre:
        - command: sleep 1
    dir: ../../outside
    command: echo never
  done: { type: terminal }
  failed: { type: terminal, status: failure }
`;

it("removes at boot the run folders a previous worker of its owner left, following no symlink", async () => {
  await expect(stat(leftover)).rejects.toMatchObject({ code: "ENOENT" });
  expect(await readFile(path.join(canary, "keep"), "utf8")).toBe("canary keep");
  expect(await readFile(path.join(canary, "sub/keep"), "utf8")).toBe("canary sub/keep");
  expect(stack.worker.logs()).toContain("removed a run folder left by a previous worker");
});

it(
  `leaves nothing of a run whose branch fails while its sibling races the cleanup (${RUNS} runs)`,
  { timeout: 600_000 },
  async () => {
    const before = await snapshot(canary);
    const caller = dashboardCaller(stack, stack.adminId);
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "race-cleanup",
      files: { "workflow.yaml": RACE() },
    });
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { id } = await caller.runs.start({ workflowId });
      ids.push(id);
      const run = await runEnded(() => caller.runs.get({ id }), `run ${id}`, 60_000);
      expect(run.status, stack.worker.logs().slice(-3000)).toBe("failed");
      // The engine error of the failing branch, not a missing step uid.
      expect(run.errorCode).toBe("SYSTEM.SANDBOX_INVALID_SPEC");
      const racer = run.steps.find((s) => s.stateName === "racer");
      expect(racer?.status).toBe("cancelled");
      // Once the run has ended: no process of it, no folder of it, the canary as it was.
      expect(leftovers()).toEqual([]);
      expect(await runFolders([id])).toEqual([]);
      expect(await snapshot(canary)).toEqual(before);
    }

    // The step uid went back to the pool each time: the next run gets it.
    const { workflowId: whoami } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "whoami-after-race",
      files: {
        "workflow.yaml":
          "name: whoami-after-race\nstates:\n  initial: look\n  look:\n    type: step\n    command: id -u\n",
      },
    });
    const { id } = await caller.runs.start({ workflowId: whoami });
    const run = await runEnded(() => caller.runs.get({ id }), `run ${id}`);
    expect(run.status).toBe("succeeded");
    if (root) expect(run.steps[0]?.stdout.trim()).toBe(String(uidBase));
    expect(await runFolders([...ids, id])).toEqual([]);
  },
);

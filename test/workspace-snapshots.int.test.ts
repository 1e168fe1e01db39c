/**
 * Workspace snapshots in a real database: a folder saved and restored with its files,
 * modes, links and empty folders; contents stored once per team; the team's cap refusing
 * with its reason and nothing half-stored; another team's snapshot id restoring nothing;
 * snapshots going with their run, orphan blobs pruned (also while saves run), and
 * retention clearing old snapshots from the attempts that named them.
 */
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "@switchyard/core/errors";
import { treeListing } from "@switchyard/testing/sandbox";
import {
  createRun,
  createTeamWithOwner,
  expireWorkspaceSnapshots,
  pruneWorkspaceBlobs,
  restoreWorkspaceSnapshot,
  saveWorkflowVersion,
  saveWorkspaceSnapshot,
  startStepRun,
  type Db,
  type SavedWorkspaceSnapshot,
} from "@switchyard/db";
import { createLogger } from "../apps/worker/src/logger";
import { startSnapshotSweep } from "../apps/worker/src/snapshot-sweep";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { waitFor } from "./helpers/worker-process";

const LIMITS = { maxFileBytes: 1 << 20, maxTotalBytes: 8 << 20, teamBytes: 64 << 20 };
const asRoot = process.getuid?.() === 0;

let database: SeededDatabase;
let db: Db;
let teamId: string;
let otherTeamId: string;
let base: string;

const newRun = async (team = teamId) => {
  const version = await saveWorkflowVersion(db, {
    teamId: team,
    name: "kept",
    files: {
      "workflow.yaml":
        "name: kept\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n",
    },
  });
  return (
    await createRun(db, {
      teamId: team,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
    })
  ).id;
};

const folder = async (name: string) => {
  const dir = path.join(base, name);
  await mkdir(dir, { recursive: true });
  return dir;
};

const kept = (saved: SavedWorkspaceSnapshot) => {
  if (!saved.kept) throw new Error(`not kept: ${saved.reason}`);
  return saved;
};

const blobCount = async (team = teamId) => db.workspaceBlob.count({ where: { teamId: team } });

beforeAll(async () => {
  database = await openSeededDatabase();
  db = database.db;
  teamId = database.teamId;
  otherTeamId = (await createTeamWithOwner(db, { name: "Other", ownerId: database.adminId })).id;
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-snapdb-"));
  await db.workspaceSnapshot.deleteMany({});
  await db.workspaceBlob.deleteMany({});
  return () => rm(base, { recursive: true, force: true });
});

describe("saveWorkspaceSnapshot and restoreWorkspaceSnapshot", () => {
  it("round-trips files, modes, links and empty folders", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await mkdir(path.join(source, "src/lib"), { recursive: true });
    await mkdir(path.join(source, "out/empty"), { recursive: true });
    await writeFile(path.join(source, "README.md"), "# project\n");
    await writeFile(path.join(source, "src/lib/tool.sh"), "#!/bin/sh\nexit 0\n");
    await chmod(path.join(source, "src/lib/tool.sh"), 0o755);
    await writeFile(path.join(source, "src/private.key"), "not really");
    await chmod(path.join(source, "src/private.key"), 0o600);
    await writeFile(path.join(source, "big.bin"), Buffer.alloc(300_000, 7));
    await symlink("../README.md", path.join(source, "src/readme"));
    await symlink("/etc/passwd", path.join(source, "passwd"));

    const saved = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    expect(saved.newBlobs).toBe(4);
    expect(saved.totalBytes).toBe(10 + 17 + 10 + 300_000);

    const target = await folder("target");
    const restored = await restoreWorkspaceSnapshot(db, teamId, saved.snapshotId, target, {
      ...(asRoot ? { uid: 61_996 } : {}),
    });
    expect(restored).toEqual({ files: 4, totalBytes: saved.totalBytes });
    expect(await treeListing(target)).toEqual(await treeListing(source));
    if (asRoot) expect((await lstat(path.join(target, "src/readme"))).uid).toBe(61_996);
  });

  it("keeps and restores a workspace of more files than one statement takes", async () => {
    const runId = await newRun();
    const source = await folder("source");
    for (let i = 0; i < 1200; i++) {
      await mkdir(path.join(source, `d${i % 7}`), { recursive: true });
      await writeFile(path.join(source, `d${i % 7}`, `f${i}.txt`), `file ${i}\n`);
    }
    const saved = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    expect(saved.newBlobs).toBe(1200);
    const target = await folder("target");
    await restoreWorkspaceSnapshot(db, teamId, saved.snapshotId, target);
    expect(await treeListing(target)).toEqual(await treeListing(source));
  });

  it("stores each content once per team, however many snapshots and files hold it", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await writeFile(path.join(source, "a.txt"), "same");
    await writeFile(path.join(source, "b.txt"), "same");
    await writeFile(path.join(source, "c.txt"), "other");
    const first = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    expect(first.newBlobs).toBe(2);
    const second = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    expect([second.newBlobs, second.newBytes]).toEqual([0, 0]);
    expect(second.snapshotId).not.toBe(first.snapshotId);
    expect(await blobCount()).toBe(2);
    expect(await db.workspaceSnapshot.count({ where: { teamId } })).toBe(2);
  });

  it("keeps nothing over the team's cap and says why; orphans are pruned before refusing", async () => {
    const source = await folder("source");
    await writeFile(path.join(source, "one.bin"), Buffer.alloc(600, 1));
    const limits = { ...LIMITS, teamBytes: 1000 };
    const runA = await newRun();
    kept(await saveWorkspaceSnapshot(db, { teamId, runId: runA, dir: source, limits }));
    await writeFile(path.join(source, "two.bin"), Buffer.alloc(600, 2));
    const refused = await saveWorkspaceSnapshot(db, { teamId, runId: runA, dir: source, limits });
    expect(refused).toEqual({
      kept: false,
      reason:
        "the team's workspace snapshots hold 600 bytes; this one adds 600 bytes, over the team's limit of 1000 bytes",
    });
    expect(await db.workspaceSnapshot.count({ where: { teamId } })).toBe(1);
    expect(await blobCount()).toBe(1);
    // The first run gone, its blob is an orphan: the next save prunes it and fits.
    await db.run.delete({ where: { id: runA } });
    await rm(path.join(source, "one.bin"));
    const runB = await newRun();
    kept(await saveWorkspaceSnapshot(db, { teamId, runId: runB, dir: source, limits }));
    expect(await blobCount()).toBe(1);
  });

  it("refuses, storing nothing, a workspace over the snapshot's own limits", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await writeFile(path.join(source, "big.bin"), Buffer.alloc(2048));
    const saved = await saveWorkspaceSnapshot(db, {
      teamId,
      runId,
      dir: source,
      limits: { ...LIMITS, maxFileBytes: 1024 },
    });
    expect(saved).toEqual({ kept: false, reason: '"big.bin" is larger than 1024 bytes' });
    expect(await blobCount()).toBe(0);
  });

  it("keeps teams apart: another team's snapshot id restores nothing", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await writeFile(path.join(source, "a.txt"), "team one");
    const saved = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    const target = await folder("target");
    const error: unknown = await restoreWorkspaceSnapshot(
      db,
      otherTeamId,
      saved.snapshotId,
      target,
    ).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("NOT_FOUND");
    expect(await readdir(target)).toEqual([]);
    // Nor can a team keep a snapshot under another team's run.
    const foreign: unknown = await saveWorkspaceSnapshot(db, {
      teamId: otherTeamId,
      runId,
      dir: source,
      limits: LIMITS,
    }).catch((e: unknown) => e);
    expect(isAppError(foreign) && foreign.code).toBe("NOT_FOUND");
    // The same content in the other team is the other team's own blob.
    kept(
      await saveWorkspaceSnapshot(db, {
        teamId: otherTeamId,
        runId: await newRun(otherTeamId),
        dir: source,
        limits: LIMITS,
      }),
    );
    expect([await blobCount(), await blobCount(otherTeamId)]).toEqual([1, 1]);
  });

  it("refuses a stored list that would write outside the folder, writing nothing", async () => {
    const runId = await newRun();
    const target = await folder("target");
    const hostile = await db.workspaceSnapshot.create({
      data: {
        teamId,
        runId,
        totalBytes: 0,
        files: [{ path: "../escaped", mode: 0o644, sha256: "0".repeat(64), size: 0 }],
      },
    });
    const error: unknown = await restoreWorkspaceSnapshot(db, teamId, hostile.id, target).catch(
      (e: unknown) => e,
    );
    expect(isAppError(error) && error.code).toBe("SYSTEM.SNAPSHOT_INVALID");
    expect(await readdir(base)).toEqual(["target"]);
  });
});

describe("removal", () => {
  it("a run's deletion takes its snapshots; the prune then removes the blobs no snapshot names", async () => {
    const source = await folder("source");
    await writeFile(path.join(source, "shared.txt"), "shared");
    await writeFile(path.join(source, "only-a.txt"), "only in a");
    const runA = await newRun();
    kept(await saveWorkspaceSnapshot(db, { teamId, runId: runA, dir: source, limits: LIMITS }));
    await rm(path.join(source, "only-a.txt"));
    const runB = await newRun();
    const b = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId: runB, dir: source, limits: LIMITS }),
    );
    await db.run.delete({ where: { id: runA } });
    expect(await db.workspaceSnapshot.count({ where: { teamId } })).toBe(1);
    expect(await blobCount()).toBe(2);
    expect(await pruneWorkspaceBlobs(db, teamId)).toBe(1);
    expect(await blobCount()).toBe(1);
    const target = await folder("target");
    await restoreWorkspaceSnapshot(db, teamId, b.snapshotId, target);
    expect(await readdir(target)).toEqual(["shared.txt"]);
  });

  it("retention removes old snapshots, clears them from their attempts and prunes their blobs", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await writeFile(path.join(source, "old.txt"), "old");
    const old = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    await writeFile(path.join(source, "old.txt"), "new");
    const recent = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    const step = await startStepRun(db, {
      teamId,
      runId,
      stateName: "agent",
      stepType: "agent",
      attempt: 1,
      path: { workflow: "kept", key: "agent", loop: [], calls: [] },
    });
    await db.stepRun.update({ where: { id: step.id }, data: { snapshotId: old.snapshotId } });
    await db.workspaceSnapshot.update({
      where: { id: old.snapshotId },
      data: { createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) },
    });
    expect(await expireWorkspaceSnapshots(db, 30)).toEqual({ snapshots: 1, blobs: 1 });
    expect((await db.stepRun.findUniqueOrThrow({ where: { id: step.id } })).snapshotId).toBeNull();
    const left = await db.workspaceSnapshot.findMany({ where: { teamId }, select: { id: true } });
    expect(left).toEqual([{ id: recent.snapshotId }]);
    expect(await blobCount()).toBe(1);
  });

  it("the worker's sweep applies the retention on its timer", async () => {
    const runId = await newRun();
    const source = await folder("source");
    await writeFile(path.join(source, "a.txt"), "aged");
    const old = kept(
      await saveWorkspaceSnapshot(db, { teamId, runId, dir: source, limits: LIMITS }),
    );
    await db.workspaceSnapshot.update({
      where: { id: old.snapshotId },
      data: { createdAt: new Date(Date.now() - 3 * 24 * 3600 * 1000) },
    });
    const sweep = startSnapshotSweep({
      db,
      log: createLogger("error"),
      retentionDays: 2,
      intervalMs: 60_000,
      firstMs: 10,
    });
    try {
      await waitFor(
        async () => ((await blobCount()) === 0 ? true : undefined),
        10_000,
        "the sweep to remove the old snapshot and its content",
      );
    } finally {
      await sweep.stop();
    }
    expect(await db.workspaceSnapshot.count({ where: { teamId } })).toBe(0);
  });

  it("prunes while saves run without taking a blob a new snapshot names", async () => {
    const runId = await newRun();
    const dirs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const dir = await folder(`w${i}`);
        await writeFile(path.join(dir, "common.txt"), "common");
        await writeFile(path.join(dir, `own.txt`), `own ${i % 3}`);
        return dir;
      }),
    );
    // Orphans to prune, from a run deleted first.
    const gone = await newRun();
    kept(await saveWorkspaceSnapshot(db, { teamId, runId: gone, dir: dirs[0]!, limits: LIMITS }));
    await db.run.delete({ where: { id: gone } });
    const saves = dirs.map((dir) =>
      saveWorkspaceSnapshot(db, { teamId, runId, dir, limits: LIMITS }),
    );
    const prunes = dirs.map(() => pruneWorkspaceBlobs(db, teamId));
    const [saved] = await Promise.all([Promise.all(saves), Promise.all(prunes)]);
    for (const [i, s] of saved.entries()) {
      const target = await folder(`restored-${i}`);
      await restoreWorkspaceSnapshot(db, teamId, kept(s).snapshotId, target);
      expect(await readFile(path.join(target, "own.txt"), "utf8")).toBe(`own ${i % 3}`);
    }
    expect(await blobCount()).toBe(4);
  });
});

/**
 * Workspace snapshots of a 1,000-file workspace (2 KiB files in 20 folders), as the worker
 * keeps one as each agent attempt starts: the first snapshot (every content new to the team)
 * against reading and hashing the same files with plain fs calls; the second snapshot of the
 * unchanged workspace (every content deduplicated, nothing sent but the list) against the
 * first; and restoring it into an empty folder against writing the same files with plain fs
 * calls. p50 of a few rounds each.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createDb,
  createRun,
  restoreWorkspaceSnapshot,
  saveWorkflowVersion,
  saveWorkspaceSnapshot,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import type { Sample } from "./measure";

const FILES = 1000;
const ROUNDS = process.env.SWITCHYARD_BENCH_QUICK === "1" ? 3 : 7;
const LIMITS = { maxFileBytes: 64 << 20, maxTotalBytes: 64 << 20, teamBytes: 1 << 30 };

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timed = async (run: () => Promise<unknown>) => {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
};

export const benchSnapshot = async (): Promise<Sample[]> => {
  const scratch = await mkdtemp(path.join(tmpdir(), "sy-bench-snap-"));
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 2 });
  try {
    const { team } = await seed(db, { adminEmail: "bench@local", adminPassword: "bench-password" });
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench",
      files: { "workflow.yaml": "name: bench\nstates:\n  initial: s\n  s:\n    type: terminal\n" },
    });
    const runId = (
      await createRun(db, {
        teamId: team.id,
        workflowId: version.workflowId,
        workflowVersionId: version.id,
        lane: "default",
        trigger: "api",
      })
    ).id;
    const workspace = path.join(scratch, "workspace");
    const files = Array.from({ length: FILES }, (_, i) => ({
      name: path.join(`dir-${i % 20}`, `file-${i}.txt`),
      content: `${i} `.repeat(600).slice(0, 2048),
    }));
    for (const file of files) {
      await mkdir(path.dirname(path.join(workspace, file.name)), { recursive: true });
      await writeFile(path.join(workspace, file.name), file.content);
    }
    const save = () =>
      saveWorkspaceSnapshot(db, { teamId: team.id, runId, dir: workspace, limits: LIMITS });
    const hashAll = async () => {
      for (const name of await readdir(workspace, { recursive: true })) {
        const full = path.join(workspace, name);
        if (name.endsWith(".txt"))
          createHash("sha256")
            .update(await readFile(full))
            .digest("hex");
      }
    };
    const writeAll = async (dir: string) => {
      for (const file of files) {
        await mkdir(path.dirname(path.join(dir, file.name)), { recursive: true });
        await writeFile(path.join(dir, file.name), file.content);
      }
    };
    const times = { hash: [] as number[], first: [] as number[], second: [] as number[] };
    const restore = { plain: [] as number[], snapshot: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      await db.workspaceSnapshot.deleteMany({ where: { teamId: team.id } });
      await db.workspaceBlob.deleteMany({ where: { teamId: team.id } });
      times.hash.push(await timed(hashAll));
      times.first.push(await timed(save));
      let snapshotId = "";
      times.second.push(
        await timed(async () => {
          const saved = await save();
          if (!saved.kept) throw new Error(saved.reason);
          snapshotId = saved.snapshotId;
        }),
      );
      const plainDir = path.join(scratch, `plain-${round}`);
      const restoredDir = path.join(scratch, `restored-${round}`);
      await mkdir(restoredDir);
      restore.plain.push(await timed(() => writeAll(plainDir)));
      restore.snapshot.push(
        await timed(() => restoreWorkspaceSnapshot(db, team.id, snapshotId, restoredDir)),
      );
    }
    return [
      {
        name: `snapshot of ${FILES} files, first (p50)`,
        unit: "ms",
        baseline: p50(times.hash),
        subject: p50(times.first),
        note: "read and SHA-256 every file with fs.readFile; the snapshot also stores them",
      },
      {
        name: `snapshot of ${FILES} files, unchanged (p50)`,
        unit: "ms",
        baseline: p50(times.first),
        subject: p50(times.second),
        note: "the first snapshot; the second stores no content (deduplicated)",
      },
      {
        name: `restore of ${FILES} files (p50)`,
        unit: "ms",
        baseline: p50(restore.plain),
        subject: p50(restore.snapshot),
        note: "the same files written with fs.writeFile",
      },
    ];
  } finally {
    await db.$disconnect();
    await database.drop();
    await rm(scratch, { recursive: true, force: true });
  }
};

/**
 * A run's workspace kept in Postgres, so a replay (or a waiting step moved to another
 * worker) starts from the same files on any worker. A snapshot row lists the files
 * (`WorkspaceSnapshot.files`, see @switchyard/core/snapshots); their contents are the team's
 * WorkspaceBlobs, one row per team and SHA-256, so the same file in many snapshots is stored
 * once, and a save reads and sends only the contents the team does not have yet.
 *
 * A save is one transaction (its blobs and its row commit together, or nothing does) under
 * the team's advisory lock, which the prune takes too: a blob a save is about to name
 * cannot be pruned between its check and its commit. The team's blobs together may hold
 * at most `teamBytes`; a save over it, even after orphans are pruned, keeps nothing and
 * says why. Snapshots go with their run (cascade) or by age (expireWorkspaceSnapshots);
 * blobs go once no snapshot of the team names them. Every statement is scoped by team.
 */
import { AppError } from "@switchyard/core/errors";
import {
  parseSnapshotEntries,
  readFolderFile,
  snapshotFolder,
  writeSnapshotEntries,
  type SnapshotFile,
  type SnapshotLimits,
} from "@switchyard/core/snapshots";
import { inTransaction, rawQuery, type Db } from "../client";
import { newRowId } from "../row-id";

/** At most about this many bytes of blob content a statement, sent or read. */
const BATCH_BYTES = 8 * 1024 * 1024;
/** At most this many blobs a statement (three parameters each, of Postgres's 65,535). */
const BATCH_FILES = 1000;
/** Files of the workspace read again at once. */
const READS_AT_ONCE = 16;

type WorkspaceSnapshotLimits = SnapshotLimits & {
  /** What the team's blobs may hold together, in bytes. */
  teamBytes: number;
};

export type SavedWorkspaceSnapshot =
  | { kept: true; snapshotId: string; totalBytes: number; newBlobs: number; newBytes: number }
  | { kept: false; reason: string };

type Query = Parameters<Parameters<typeof inTransaction>[1]>[0];

/** Thrown inside a save's transaction to roll it back and keep nothing. */
class NotKept extends Error {}

const lockTeam = (query: Query, teamId: string) =>
  query(`SELECT pg_advisory_xact_lock(hashtextextended('switchyard.team-blobs:' || $1, 0))`, [
    teamId,
  ]);

/** Removes the team's blobs no snapshot of the team names (except `keep`), under its lock. */
const pruneTeam = async (query: Query, teamId: string, keep: string[] = []) => {
  const rows = await query<{ removed: number }>(
    `WITH named AS (
       SELECT DISTINCT f->>'sha256' AS sha256
       FROM "WorkspaceSnapshot" s CROSS JOIN LATERAL jsonb_array_elements(s.files) f
       WHERE s."teamId" = $1 AND f ? 'sha256'
     ),
     gone AS (
       DELETE FROM "WorkspaceBlob" b
       WHERE b."teamId" = $1 AND b.sha256 <> ALL($2::text[])
         AND NOT EXISTS (SELECT 1 FROM named n WHERE n.sha256 = b.sha256)
       RETURNING 1
     )
     SELECT count(*)::int AS removed FROM gone`,
    [teamId, keep],
  );
  return rows[0]?.removed ?? 0;
};

const teamBlobBytes = async (query: Query, teamId: string) =>
  Number(
    (
      await query<{ bytes: string }>(
        `SELECT COALESCE(sum(size), 0)::bigint AS bytes FROM "WorkspaceBlob" WHERE "teamId" = $1`,
        [teamId],
      )
    )[0]?.bytes ?? 0,
  );

/** `items` in runs of at most BATCH_BYTES and BATCH_FILES (an item larger than that on its own). */
const batches = <T extends { size: number }>(items: T[]): T[][] => {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && (bytes + item.size > BATCH_BYTES || current.length >= BATCH_FILES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.size;
  }
  if (current.length > 0) out.push(current);
  return out;
};

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Keeps the folder `dir` as a snapshot of run `runId`: its entries walked and hashed, the
 * contents the team lacks stored, the snapshot row written, all in one transaction. Not
 * kept (nothing stored) when over a limit or when the folder changed while it was read.
 */
export const saveWorkspaceSnapshot = async (
  db: Db,
  input: { teamId: string; runId: string; dir: string; limits: WorkspaceSnapshotLimits },
): Promise<SavedWorkspaceSnapshot> => {
  const { teamId, runId, dir, limits } = input;
  const walked = await snapshotFolder(dir, limits);
  if (!walked.kept) return walked;
  const unique = new Map<string, SnapshotFile>();
  for (const entry of walked.entries)
    if ("sha256" in entry && !unique.has(entry.sha256)) unique.set(entry.sha256, entry);
  const hashes = [...unique.keys()];
  /** The contents of `files`, read a few at a time (a batch of small files must not open thousands at once). */
  const readContents = async (files: SnapshotFile[]) => {
    const contents = new Map<string, Buffer>();
    for (let i = 0; i < files.length; i += READS_AT_ONCE)
      await Promise.all(
        files.slice(i, i + READS_AT_ONCE).map(async (file) =>
          contents.set(
            file.sha256,
            await readFolderFile(dir, file).catch((error: unknown) => {
              throw new NotKept(error instanceof Error ? error.message : String(error));
            }),
          ),
        ),
      );
    return contents;
  };
  const missingOf = async (query: Query) => {
    const have = new Set(
      (
        await query<{ sha256: string }>(
          `SELECT sha256 FROM "WorkspaceBlob" WHERE "teamId" = $1 AND sha256 = ANY($2::text[])`,
          [teamId, hashes],
        )
      ).map((row) => row.sha256),
    );
    return [...unique.values()].filter((file) => !have.has(file.sha256));
  };
  try {
    // The files the team lacks are read before its lock is taken: other attempts of the team
    // wait only for the statements, not for the disk.
    const read = await readContents(
      await missingOf((text, values) => rawQuery(db, text, values ?? [])),
    );
    return await inTransaction(db, async (query) => {
      await lockTeam(query, teamId);
      const [run] = await query<{ id: string }>(
        `SELECT id FROM "Run" WHERE id = $1 AND "teamId" = $2`,
        [runId, teamId],
      );
      if (!run) throw new AppError("NOT_FOUND", `run ${runId} not found`);
      // Again under the lock: a prune may have removed a content since.
      const missing = await missingOf(query);
      const newBytes = missing.reduce((sum, file) => sum + file.size, 0);
      let used = await teamBlobBytes(query, teamId);
      if (used + newBytes > limits.teamBytes && (await pruneTeam(query, teamId, hashes)) > 0)
        used = await teamBlobBytes(query, teamId);
      if (used + newBytes > limits.teamBytes)
        throw new NotKept(
          `the team's workspace snapshots hold ${sizeText(used)}; this one adds ${sizeText(newBytes)}, over the team's limit of ${sizeText(limits.teamBytes)}`,
        );
      const late = await readContents(missing.filter((file) => !read.has(file.sha256)));
      for (const batch of batches(missing)) {
        // One row of parameters a blob: node-postgres sends a Buffer as bytes, not as text.
        const rows = batch.map((_, i) => `($1, $${3 * i + 2}, $${3 * i + 3}::int, $${3 * i + 4})`);
        await query(
          `INSERT INTO "WorkspaceBlob" ("teamId", sha256, size, data) VALUES ${rows.join(", ")}
           ON CONFLICT ("teamId", sha256) DO NOTHING`,
          [
            teamId,
            ...batch.flatMap((file) => [
              file.sha256,
              file.size,
              read.get(file.sha256) ?? late.get(file.sha256),
            ]),
          ],
        );
      }
      const snapshotId = newRowId();
      await query(
        `INSERT INTO "WorkspaceSnapshot" (id, "teamId", "runId", files, "totalBytes")
         VALUES ($1, $2, $3, $4::jsonb, $5::bigint)`,
        [snapshotId, teamId, runId, JSON.stringify(walked.entries), walked.totalBytes],
      );
      return {
        kept: true as const,
        snapshotId,
        totalBytes: walked.totalBytes,
        newBlobs: missing.length,
        newBytes,
      };
    });
  } catch (error) {
    if (error instanceof NotKept) return { kept: false, reason: error.message };
    throw error;
  }
};

/**
 * Writes snapshot `snapshotId` of the team into `dir` (an empty folder, usually), owned by
 * `uid` when given. NOT_FOUND when the team has no such snapshot; SYSTEM.SNAPSHOT_INVALID
 * when its list or a content is not what it should be.
 */
export const restoreWorkspaceSnapshot = async (
  db: Db,
  teamId: string,
  snapshotId: string,
  dir: string,
  options: { uid?: number } = {},
): Promise<{ files: number; totalBytes: number }> => {
  const [row] = await rawQuery<{ files: unknown; totalBytes: string }>(
    db,
    `SELECT files, "totalBytes"::text AS "totalBytes" FROM "WorkspaceSnapshot" WHERE id = $1 AND "teamId" = $2`,
    [snapshotId, teamId],
  );
  if (!row) throw new AppError("NOT_FOUND", `workspace snapshot ${snapshotId} not found`);
  const entries = parseSnapshotEntries(row.files);
  const unique = new Map<string, SnapshotFile>();
  for (const entry of entries)
    if ("sha256" in entry && !unique.has(entry.sha256)) unique.set(entry.sha256, entry);
  // Contents are read a batch at a time, in the order the entries need them.
  const groups = batches([...unique.values()]);
  const groupOf = new Map(groups.flatMap((group, i) => group.map((f) => [f.sha256, i] as const)));
  const loaded = new Map<string, Buffer>();
  const content = async (sha256: string) => {
    let bytes = loaded.get(sha256);
    if (!bytes) {
      const group = groups[groupOf.get(sha256) ?? -1] ?? [];
      const rows = await rawQuery<{ sha256: string; data: Buffer }>(
        db,
        `SELECT sha256, data FROM "WorkspaceBlob" WHERE "teamId" = $1 AND sha256 = ANY($2::text[])`,
        [teamId, group.map((f) => f.sha256)],
      );
      // Kept for the entries that name them again (at most the snapshot's size in all).
      for (const r of rows) loaded.set(r.sha256, Buffer.from(r.data));
      bytes = loaded.get(sha256);
    }
    if (!bytes)
      throw new AppError(
        "SYSTEM.SNAPSHOT_INVALID",
        `the workspace snapshot cannot be restored: the content ${sha256} is not stored`,
      );
    return bytes;
  };
  await writeSnapshotEntries(
    dir,
    entries,
    content,
    options.uid === undefined ? {} : { owner: { uid: options.uid } },
  );
  return { files: unique.size, totalBytes: Number(row.totalBytes) };
};

/**
 * Removes the blobs no snapshot of their team names: of `teamId`, or of every team. Safe
 * while snapshots are saved: each team's prune holds the lock its saves take.
 */
export const pruneWorkspaceBlobs = async (db: Db, teamId?: string): Promise<number> => {
  const teams =
    teamId === undefined
      ? (
          await rawQuery<{ teamId: string }>(
            db,
            `SELECT DISTINCT "teamId" FROM "WorkspaceBlob"`,
            [],
          )
        ).map((row) => row.teamId)
      : [teamId];
  let removed = 0;
  for (const team of teams)
    removed += await inTransaction(db, async (query) => {
      await lockTeam(query, team);
      return pruneTeam(query, team);
    });
  return removed;
};

/**
 * Retention: removes the snapshots older than `retentionDays` (attempts that named one keep
 * their row, its snapshotId cleared), except those a suspended step resumes from, then the
 * blobs no snapshot names any more.
 */
export const expireWorkspaceSnapshots = async (
  db: Db,
  retentionDays: number,
  now = new Date(),
): Promise<{ snapshots: number; blobs: number }> => {
  const before = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  const teams = await rawQuery<{ teamId: string }>(
    db,
    `SELECT DISTINCT "teamId" FROM "WorkspaceSnapshot" WHERE "createdAt" < $1::timestamp(3)`,
    [before],
  );
  let snapshots = 0;
  for (const { teamId } of teams) {
    const [gone] = await rawQuery<{ removed: number }>(
      db,
      // A suspended step's workspace stays while its session waits to resume from it.
      `WITH gone AS (DELETE FROM "WorkspaceSnapshot" s WHERE s."teamId" = $1 AND s."createdAt" < $2::timestamp(3)
         AND NOT EXISTS (SELECT 1 FROM "AgentSession" a WHERE a."teamId" = $1 AND a."snapshotId" = s.id) RETURNING 1)
       SELECT count(*)::int AS removed FROM gone`,
      [teamId, before],
    );
    snapshots += gone?.removed ?? 0;
  }
  // Every team: orphans of runs deleted meanwhile go too.
  return { snapshots, blobs: await pruneWorkspaceBlobs(db) };
};

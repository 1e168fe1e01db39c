/**
 * A team's linked git repositories as stored: the source, its sealed access token and
 * webhook secret (Credential rows named after it, never read back but to be opened), the
 * claim that keeps two syncs of one source apart, and what the last sync found. Sealing,
 * opening, fetching and validating happen in the callers; every query but the webhook's
 * lookup by id filters on teamId.
 */
import type { Db } from "../client";
import type { Prisma } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

/** What the team sees of a source. */
const listing = {
  id: true,
  url: true,
  branch: true,
  folder: true,
  username: true,
  tokenCredentialId: true,
  syncIntervalMinutes: true,
  nextSyncAt: true,
  syncingSince: true,
  lastSyncAt: true,
  lastCommit: true,
  lastStatus: true,
  lastError: true,
  lastFiles: true,
  createdById: true,
  createdAt: true,
  workflows: {
    where: { archivedAt: null },
    orderBy: { name: "asc" },
    select: { id: true, name: true, gitPath: true },
  },
} satisfies Prisma.GitSourceSelect;

/** What holds a source's secrets, and so the name of their credential rows. */
export const gitSourceHolder = (sourceId: string, what: "token" | "webhook") =>
  `git-source:${sourceId}:${what}`;

const storeSealed = (
  tx: PrismaClientOrTransaction,
  teamId: string,
  name: string,
  sealed: SealedValue,
) =>
  tx.credential.create({
    data: {
      id: sealed.credentialId,
      teamId,
      // what the envelope is bound to, then its own id (as every sealed row, see rewrap.ts)
      name: `${name}:${sealed.credentialId}`,
      kind: "secret",
      ...sealedColumns(sealed.envelope),
    },
  });

type GitSourceFields = {
  url: string;
  branch: string;
  folder: string;
  username: string;
  syncIntervalMinutes: number | null;
};

/** Stores a source with its sealed secrets and an audit entry; `id` is the one they were sealed for. */
export const createGitSource = (
  db: Db,
  input: GitSourceFields & {
    id: string;
    teamId: string;
    actorUserId: string;
    token?: SealedValue;
    webhook: SealedValue;
  },
) =>
  db.$transaction(async (tx) => {
    if (input.token)
      await storeSealed(tx, input.teamId, gitSourceHolder(input.id, "token"), input.token);
    await storeSealed(tx, input.teamId, gitSourceHolder(input.id, "webhook"), input.webhook);
    const row = await tx.gitSource.create({
      data: {
        id: input.id,
        teamId: input.teamId,
        url: input.url,
        branch: input.branch,
        folder: input.folder,
        username: input.username,
        syncIntervalMinutes: input.syncIntervalMinutes,
        nextSyncAt: input.syncIntervalMinutes === null ? null : new Date(),
        tokenCredentialId: input.token?.credentialId ?? null,
        webhookCredentialId: input.webhook.credentialId,
        createdById: input.actorUserId,
      },
      select: listing,
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "git.link",
      targetType: "git_source",
      targetId: input.id,
      metadata: { url: input.url, branch: input.branch, folder: input.folder },
    });
    return row;
  });

export const listGitSources = (db: Db, teamId: string) =>
  db.gitSource.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: listing });

export const getGitSource = async (db: Db, teamId: string, id: string) =>
  (await db.gitSource.findFirst({ where: { id, teamId }, select: listing })) ?? undefined;

const sealedOf = async (db: PrismaClientOrTransaction, teamId: string, id: string | null) => {
  if (!id) return undefined;
  const row = await db.credential.findFirst({ where: { id, teamId } });
  return row
    ? ({ credentialId: row.id, envelope: envelopeOf(row) } satisfies SealedValue)
    : undefined;
};

/** A source's sealed access token, for the sync that opens it; undefined when it has none. */
export const gitSourceToken = async (db: Db, teamId: string, id: string) => {
  const row = await db.gitSource.findFirst({
    where: { id, teamId },
    select: { tokenCredentialId: true },
  });
  return sealedOf(db, teamId, row?.tokenCredentialId ?? null);
};

/**
 * A push webhook's source by id alone, with its sealed secret: the one lookup that does not
 * know the team, since the URL is all the sender has.
 */
export const gitSourceForWebhook = async (db: Db, id: string) => {
  const row = await db.gitSource.findUnique({
    where: { id },
    select: { id: true, teamId: true, branch: true, webhookCredentialId: true },
  });
  const sealed = row && (await sealedOf(db, row.teamId, row.webhookCredentialId));
  return row && sealed ? { ...row, sealed } : undefined;
};

/** Removes a source and its secrets; its workflows stay, as the team's own. Null when there is none. */
export const deleteGitSource = (
  db: Db,
  input: { teamId: string; id: string; actorUserId: string },
) =>
  db.$transaction(async (tx) => {
    const row = await tx.gitSource.findFirst({
      where: { id: input.id, teamId: input.teamId },
      select: { id: true, url: true, tokenCredentialId: true, webhookCredentialId: true },
    });
    if (!row) return null;
    await tx.workflow.updateMany({
      where: { teamId: input.teamId, gitSourceId: row.id },
      data: { gitSourceId: null, gitPath: null },
    });
    await tx.gitSource.delete({ where: { id: row.id } });
    const secrets = [row.tokenCredentialId, row.webhookCredentialId].filter(
      (id): id is string => id !== null,
    );
    await tx.credential.deleteMany({ where: { teamId: input.teamId, id: { in: secrets } } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "git.unlink",
      targetType: "git_source",
      targetId: row.id,
      metadata: { url: row.url },
    });
    return { id: row.id };
  });

/** How long a sync's claim holds before another may take the source over (a web process that died mid-sync). */
const CLAIM_MS = 10 * 60_000;

/** Takes the source for one sync; false when another sync holds it. */
export const claimGitSync = async (db: Db, teamId: string, id: string) => {
  const now = new Date();
  const taken = await db.gitSource.updateMany({
    where: {
      id,
      teamId,
      OR: [{ syncingSince: null }, { syncingSince: { lt: new Date(now.getTime() - CLAIM_MS) } }],
    },
    // This sync reads the branch as it is now: any earlier request for one more is met.
    data: { syncingSince: now, resyncRequested: false },
  });
  if (taken.count === 1) return true;
  // Another sync runs (and may have read the branch before what asked for this one, a push):
  // it queues one more when it ends (finishGitSync); if it has just ended, this is due now.
  await db.gitSource.updateMany({
    where: { id, teamId },
    data: { resyncRequested: true, nextSyncAt: now },
  });
  return false;
};

type GitSyncOutcome = {
  status: "ok" | "invalid" | "failed";
  commit: string | null;
  error: string | null;
  files: Prisma.InputJsonValue;
};

/** Keeps what a sync found, lets the source go and sets its next scheduled sync. */
export const finishGitSync = async (
  db: Db,
  input: { teamId: string; id: string; actorUserId: string | null; outcome: GitSyncOutcome },
) =>
  db.$transaction(async (tx) => {
    // Locked, so a request for one more sync (claimGitSync refused) lands before this read
    // or after this commit, never between them.
    const [row] = await tx.$queryRaw<
      { syncIntervalMinutes: number | null; resyncRequested: boolean }[]
    >`SELECT "syncIntervalMinutes", "resyncRequested" FROM "GitSource"
      WHERE id = ${input.id} AND "teamId" = ${input.teamId} FOR UPDATE`;
    if (!row) return;
    const now = new Date();
    await tx.gitSource.update({
      where: { id: input.id },
      data: {
        syncingSince: null,
        lastSyncAt: now,
        lastStatus: input.outcome.status,
        lastError: input.outcome.error,
        lastFiles: input.outcome.files,
        ...(input.outcome.commit ? { lastCommit: input.outcome.commit } : {}),
        // One more sync asked for while this one ran: due now, for the scheduler's next pass.
        resyncRequested: false,
        nextSyncAt: row.resyncRequested
          ? now
          : row.syncIntervalMinutes === null
            ? null
            : new Date(now.getTime() + row.syncIntervalMinutes * 60_000),
      },
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "git.sync",
      targetType: "git_source",
      targetId: input.id,
      metadata: { status: input.outcome.status, commit: input.outcome.commit },
    });
  });

/** Sources whose scheduled sync is due, across teams, for the scheduler. */
export const dueGitSources = (db: Db, now = new Date(), take = 20) =>
  db.gitSource.findMany({
    where: {
      nextSyncAt: { lte: now },
      // a claim older than CLAIM_MS is a sync whose process died: due again
      OR: [{ syncingSince: null }, { syncingSince: { lt: new Date(now.getTime() - CLAIM_MS) } }],
    },
    orderBy: { nextSyncAt: "asc" },
    take,
    select: { id: true, teamId: true },
  });

/** The source's live workflows whose file is no longer in the folder, archived with an audit entry. */
export const archiveRemovedGitWorkflows = (
  db: Db,
  input: { teamId: string; sourceId: string; keepPaths: string[]; actorUserId: string | null },
) =>
  db.$transaction(async (tx) => {
    const gone = await tx.workflow.findMany({
      where: {
        teamId: input.teamId,
        gitSourceId: input.sourceId,
        archivedAt: null,
        gitPath: { notIn: input.keepPaths },
      },
      select: { id: true, name: true, gitPath: true },
    });
    if (gone.length === 0) return gone;
    await tx.workflow.updateMany({
      where: { teamId: input.teamId, id: { in: gone.map((w) => w.id) } },
      data: { archivedAt: new Date() },
    });
    for (const wf of gone)
      await recordAudit(tx, {
        teamId: input.teamId,
        actorUserId: input.actorUserId,
        action: "workflow.archive",
        targetType: "workflow",
        targetId: wf.id,
        metadata: { name: wf.name, reason: "removed from its git repository" },
      });
    return gone;
  });

/** The role in the team of whom a scheduled or pushed sync acts as (the source's creator), or undefined when they are no longer a member. */
export const gitSyncActorRole = async (db: Db, teamId: string, userId: string | null) => {
  if (!userId) return undefined;
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { role: true },
  });
  return membership?.role;
};

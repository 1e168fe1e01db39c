/**
 * A team's workflow packs: each install or update is a numbered pack version that saves
 * every pack workflow (named `<pack>/<workflow>`) as a new workflow version, in one
 * transaction with its audit entry, so a pack is never half installed. Every query
 * filters on teamId.
 */
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { recordAudit } from "./audit-log";
import { saveWorkflowVersionIn } from "./bundle-store";

type PackWorkflowInput = {
  /** the name in the pack's manifest; the team's workflow is `<pack>/<name>` */
  name: string;
  entryPath: string;
  files: Record<string, string>;
  description: string;
  lane: string;
};

type InstallPackInput = {
  teamId: string;
  actorUserId: string;
  name: string;
  version: string;
  description: string;
  /** "upload", or owner/repo */
  source: string;
  archiveHash: string;
  manifest: Prisma.InputJsonValue;
  readme: string;
  workflows: PackWorkflowInput[];
  /**
   * Refuses a change to the pack's live workflows as they stand (each name and lane), read in
   * the install's transaction: an update replaces or archives each of them, as a save or a
   * delete of that workflow would.
   */
  mayChange: (live: LivePackWorkflow[]) => void;
};

type LivePackWorkflow = { name: string; lane: string };

/** The pack's workflows that are not archived, with their lanes, locked for the change. */
const livePackWorkflows = async (
  tx: Prisma.TransactionClient,
  teamId: string,
  pack: string,
): Promise<LivePackWorkflow[]> =>
  tx.$queryRaw<LivePackWorkflow[]>`SELECT "name", "lane" FROM "Workflow"
    WHERE "teamId" = ${teamId} AND "pack" = ${pack} AND "archivedAt" IS NULL FOR UPDATE`;

/** The team's installed packs with their current versions and live workflows. */
export const listWorkflowPacks = async (db: Db, teamId: string) => {
  const [packs, workflows] = await Promise.all([
    db.workflowPack.findMany({
      where: { teamId },
      orderBy: { name: "asc" },
      include: {
        currentVersion: {
          select: { number: true, version: true, createdAt: true, manifest: true },
        },
      },
    }),
    db.workflow.findMany({
      where: { teamId, pack: { not: null }, archivedAt: null },
      orderBy: { name: "asc" },
      select: { id: true, name: true, pack: true },
    }),
  ]);
  return packs.map((p) => ({ ...p, workflows: workflows.filter((w) => w.pack === p.name) }));
};

/** The team's pack of that name with its versions, newest first; undefined when none. */
export const getWorkflowPack = async (db: Db, teamId: string, name: string) => {
  const pack = await db.workflowPack.findFirst({
    where: { teamId, name },
    include: {
      currentVersion: true,
      versions: {
        orderBy: { number: "desc" },
        select: { number: true, version: true, createdAt: true, createdById: true },
      },
    },
  });
  if (!pack) return undefined;
  const workflows = await db.workflow.findMany({
    where: { teamId, pack: name, archivedAt: null },
    orderBy: { name: "asc" },
    select: { id: true, name: true, currentVersion: { select: { number: true } } },
  });
  return { ...pack, workflows };
};

/** Whether the team has installed a pack of that name. */
export const hasWorkflowPack = async (db: Db, teamId: string, name: string) =>
  (await db.workflowPack.count({ where: { teamId, name } })) > 0;

/** The team's own workflows a pack of that name would collide with. */
const collisions = (tx: Prisma.TransactionClient, teamId: string, name: string) =>
  tx.workflow.findMany({
    where: {
      teamId,
      pack: null,
      OR: [{ name, archivedAt: null }, { name: { startsWith: `${name}/` } }],
    },
    select: { name: true },
    take: 5,
  });

const clash = (name: string) =>
  new AppError(
    "CONFLICT",
    `pack "${name}" is being installed or updated by another request at the same time: nothing was changed; look at the pack's versions, then try again`,
  );

/** The install's one transaction. */
const installIn = async (db: Db, input: InstallPackInput) =>
  db.$transaction(
    async (tx) => {
      const taken = await collisions(tx, input.teamId, input.name);
      if (taken.length > 0)
        throw new AppError(
          "USER.PACK.NAME_COLLISION",
          `pack "${input.name}" collides with the team's own workflow${taken.length === 1 ? "" : "s"} ${taken.map((w) => `"${w.name}"`).join(", ")}: rename ${taken.length === 1 ? "it" : "them"} or install the pack under another name`,
          { location: { file: "manifest.yaml", path: "name" } },
        );
      const seen = await tx.workflowPack.findFirst({
        where: { teamId: input.teamId, name: input.name },
        select: { currentVersionId: true },
      });
      input.mayChange(await livePackWorkflows(tx, input.teamId, input.name));
      // The upsert waits for another install of the same name to commit: its row then is not
      // the one read above, and this install would silently stack on it.
      const pack = await tx.workflowPack.upsert({
        where: { teamId_name: { teamId: input.teamId, name: input.name } },
        create: {
          teamId: input.teamId,
          name: input.name,
          description: input.description,
          source: input.source,
        },
        update: { description: input.description, source: input.source },
      });
      if ((seen?.currentVersionId ?? null) !== (pack.currentVersionId ?? null))
        throw clash(input.name);
      const saved: Record<string, string> = {};
      const made: { name: string; workflowId: string; version: number }[] = [];
      for (const wf of input.workflows) {
        const name = `${input.name}/${wf.name}`;
        const version = await saveWorkflowVersionIn(tx, {
          teamId: input.teamId,
          name,
          description: wf.description,
          lane: wf.lane,
          entryPath: wf.entryPath,
          files: wf.files,
          createdById: input.actorUserId,
          pack: input.name,
        });
        saved[name] = version.id;
        made.push({ name, workflowId: version.workflowId, version: version.number });
      }
      // Workflows an earlier version had that this one does not: archived, as a deleted workflow is.
      await tx.workflow.updateMany({
        where: {
          teamId: input.teamId,
          pack: input.name,
          archivedAt: null,
          name: { notIn: Object.keys(saved) },
        },
        data: { archivedAt: new Date() },
      });
      const last = await tx.workflowPackVersion.aggregate({
        where: { packId: pack.id, teamId: input.teamId },
        _max: { number: true },
      });
      const version = await tx.workflowPackVersion.create({
        data: {
          teamId: input.teamId,
          packId: pack.id,
          number: (last._max.number ?? 0) + 1,
          version: input.version,
          archiveHash: input.archiveHash,
          manifest: input.manifest,
          readme: input.readme,
          workflows: saved,
          createdById: input.actorUserId,
        },
      });
      await tx.workflowPack.update({
        where: { id: pack.id },
        data: { currentVersionId: version.id },
      });
      await recordAudit(tx, {
        teamId: input.teamId,
        actorUserId: input.actorUserId,
        action: version.number === 1 ? "pack.install" : "pack.update",
        targetType: "pack",
        targetId: pack.id,
        metadata: { name: input.name, version: input.version, source: input.source },
      });
      return { pack, version, workflows: made };
    },
    { timeout: 30_000 },
  );

/** Installs the pack, or updates it: a new pack version and a workflow version for each workflow. */
export const installWorkflowPackVersion = async (db: Db, input: InstallPackInput) =>
  installIn(db, input).catch((error: unknown) => {
    // Two installs that both saw no pack can still meet on a unique index (the pack's name,
    // one of its workflows' names): the one that lost gets the same answer.
    if ((error as { code?: unknown } | null)?.code === "P2002") throw clash(input.name);
    throw error;
  });

/** Removes the pack; its workflows are archived as deleting a workflow does (runs stay). */
export const removeWorkflowPack = async (
  db: Db,
  input: {
    teamId: string;
    name: string;
    actorUserId: string;
    /** refuses archiving these workflows, as deleting each of them would */
    mayChange: (live: LivePackWorkflow[]) => void;
  },
) =>
  db.$transaction(async (tx) => {
    const row = await tx.workflowPack.findFirst({
      where: { teamId: input.teamId, name: input.name },
    });
    if (!row) throw new AppError("NOT_FOUND", `pack "${input.name}" is not installed`);
    input.mayChange(await livePackWorkflows(tx, input.teamId, input.name));
    // The pack goes whole or not at all: not while one of its workflows still has a run going.
    const going = await tx.run.findFirst({
      where: {
        teamId: input.teamId,
        status: { in: ["queued", "running", "waiting"] },
        workflow: { teamId: input.teamId, pack: input.name, archivedAt: null },
      },
      select: { id: true, workflow: { select: { name: true } } },
    });
    if (going)
      throw new AppError(
        "CONFLICT",
        `pack "${input.name}" cannot be removed: its workflow "${going.workflow.name}" has a run that has not ended (${going.id}); wait for it or cancel it, then remove the pack`,
      );
    const archived = await tx.workflow.updateMany({
      where: { teamId: input.teamId, pack: input.name, archivedAt: null },
      data: { archivedAt: new Date() },
    });
    await tx.workflowPack.update({ where: { id: row.id }, data: { currentVersionId: null } });
    await tx.workflowPack.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "pack.remove",
      targetType: "pack",
      targetId: row.id,
      metadata: { name: input.name, workflows: archived.count },
    });
    return { name: input.name, workflowsArchived: archived.count };
  });

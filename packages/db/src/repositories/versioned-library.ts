/**
 * What the team's versioned libraries (step templates, skills) share: an item found by team
 * and name whose text is saved as numbered immutable versions, the newest one current, and
 * every save and delete an audit entry in the same transaction. The two keep their own tables;
 * this drives either through the delegates Prisma generates for them, which have one shape.
 */
import { createHash } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";

type Version = { id: string; number: number; contentHash: string };
type Item = { id: string; currentVersion: Version | null };

/** The part of a library's item and version delegates used here. */
type Delegates = {
  item: {
    upsert(args: object): Promise<Item>;
    update(args: object): Promise<unknown>;
    delete(args: object): Promise<unknown>;
    findFirst(args: object): Promise<{ id: string } | null>;
  };
  version: {
    findFirst(args: object): Promise<{ number: number } | null>;
    create(args: object): Promise<Version>;
  };
};

export type Library = {
  /** audit action prefix and target type: `template`, `skill` */
  kind: "template" | "skill";
  /** the version table's column naming its item */
  itemKey: "templateId" | "skillId";
  delegates: (tx: PrismaClientOrTransaction) => Delegates;
};

/** What saving a version of a library item takes. */
export type LibrarySave = {
  teamId: string;
  name: string;
  description: string;
  content: string;
  actorUserId: string;
};

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Saves a new version of the named item (creating it on first save) unless its text is the
 * current one; `created` says whether a version was made.
 */
export const saveLibraryVersion = async (db: Db, library: Library, input: LibrarySave) => {
  const contentHash = sha256(input.content);
  const { teamId, name, description } = input;
  return db.$transaction(async (tx) => {
    const { item: items, version: versions } = library.delegates(tx);
    const item = await items.upsert({
      where: { teamId_name: { teamId, name } },
      create: { teamId, name, description },
      update: { description },
      include: { currentVersion: true },
    });
    if (item.currentVersion?.contentHash === contentHash)
      return { item, version: item.currentVersion, created: false };
    const newest = await versions.findFirst({
      where: { teamId, [library.itemKey]: item.id },
      orderBy: { number: "desc" },
      select: { number: true },
    });
    const version = await versions.create({
      data: {
        teamId,
        [library.itemKey]: item.id,
        number: (newest?.number ?? 0) + 1,
        contentHash,
        content: input.content,
        createdById: input.actorUserId,
      },
    });
    await items.update({ where: { id: item.id }, data: { currentVersionId: version.id } });
    await recordAudit(tx, {
      teamId,
      actorUserId: input.actorUserId,
      action: `${library.kind}.save`,
      targetType: library.kind,
      targetId: item.id,
      metadata: { name, version: version.number },
    });
    return { item, version, created: true };
  });
};

/** Deletes the named item and its versions; NOT_FOUND when the team has none. */
export const deleteLibraryItem = async (
  db: Db,
  library: Library,
  input: { teamId: string; name: string; actorUserId: string },
) =>
  db.$transaction(async (tx) => {
    const { item: items } = library.delegates(tx);
    const row = await items.findFirst({ where: { teamId: input.teamId, name: input.name } });
    if (!row) throw new AppError("NOT_FOUND", `${library.kind} "${input.name}" not found`);
    await items.update({ where: { id: row.id }, data: { currentVersionId: null } });
    await items.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: `${library.kind}.delete`,
      targetType: library.kind,
      targetId: row.id,
      metadata: { name: input.name },
    });
  });

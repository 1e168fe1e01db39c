/**
 * A team's step templates: saved as numbered immutable versions (text and SHA-256), the
 * current one found by name when a workflow is saved. Which version a saved workflow
 * pinned is read back from the copy in its bundle, by hash. Every query filters on teamId.
 */
import { createHash } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import { libraryOf, templateNameOf, type TemplateLibrary } from "@switchyard/core/workflow";
import type { Db } from "../client";
import { recordAudit } from "./audit-log";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The team's templates by name, each with its current version's number and text. */
export const listStepTemplates = (db: Db, teamId: string) =>
  db.stepTemplate.findMany({
    where: { teamId },
    orderBy: { name: "asc" },
    include: {
      currentVersion: {
        select: { id: true, number: true, content: true, contentHash: true, createdAt: true },
      },
    },
  });

/** The team's template of that name with its versions, newest first; undefined when none. */
export const getStepTemplate = async (db: Db, teamId: string, name: string) =>
  (await db.stepTemplate.findFirst({
    where: { teamId, name },
    include: {
      currentVersion: true,
      versions: {
        orderBy: { number: "desc" },
        select: { id: true, number: true, contentHash: true, createdAt: true, createdById: true },
      },
    },
  })) ?? undefined;

/**
 * Saves a new version of the template (creating it on first save) unless the text is
 * unchanged, with an audit entry in the same transaction.
 */
export const saveStepTemplateVersion = async (
  db: Db,
  input: {
    teamId: string;
    name: string;
    description: string;
    content: string;
    actorUserId: string;
  },
) => {
  const contentHash = sha256(input.content);
  return db.$transaction(async (tx) => {
    const template = await tx.stepTemplate.upsert({
      where: { teamId_name: { teamId: input.teamId, name: input.name } },
      create: { teamId: input.teamId, name: input.name, description: input.description },
      update: { description: input.description },
      include: { currentVersion: true },
    });
    if (template.currentVersion?.contentHash === contentHash)
      return { template, version: template.currentVersion, created: false };
    const last = await tx.stepTemplateVersion.aggregate({
      where: { templateId: template.id, teamId: input.teamId },
      _max: { number: true },
    });
    const version = await tx.stepTemplateVersion.create({
      data: {
        teamId: input.teamId,
        templateId: template.id,
        number: (last._max.number ?? 0) + 1,
        contentHash,
        content: input.content,
        createdById: input.actorUserId,
      },
    });
    await tx.stepTemplate.update({
      where: { id: template.id },
      data: { currentVersionId: version.id },
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "template.save",
      targetType: "template",
      targetId: template.id,
      metadata: { name: input.name, version: version.number },
    });
    return { template, version, created: true };
  });
};

/** Deletes the template; workflows saved with it keep the copy their versions pinned. */
export const deleteStepTemplate = async (
  db: Db,
  input: { teamId: string; name: string; actorUserId: string },
) =>
  db.$transaction(async (tx) => {
    const row = await tx.stepTemplate.findFirst({
      where: { teamId: input.teamId, name: input.name },
    });
    if (!row) throw new AppError("NOT_FOUND", `template "${input.name}" not found`);
    await tx.stepTemplate.update({ where: { id: row.id }, data: { currentVersionId: null } });
    await tx.stepTemplate.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "template.delete",
      targetType: "template",
      targetId: row.id,
      metadata: { name: input.name },
    });
  });

/** The team's current templates, as `use_template` finds them when a workflow is saved. */
export const teamTemplateLibrary = async (db: Db, teamId: string): Promise<TemplateLibrary> => {
  const rows = await db.stepTemplate.findMany({
    where: { teamId, currentVersionId: { not: null } },
    select: { name: true, currentVersion: { select: { number: true, content: true } } },
  });
  return libraryOf(
    rows.flatMap((r) =>
      r.currentVersion
        ? [
            {
              name: r.name,
              source: r.currentVersion.content,
              file: `templates/${r.name} v${r.currentVersion.number}`,
              version: r.currentVersion.number,
            },
          ]
        : [],
    ),
  );
};

/**
 * The templates a saved bundle pinned: each copy under `.awf/templates/` with the team's
 * version of that name whose text it is, or null when it came with the bundle itself.
 */
export const pinnedStepTemplates = async (
  db: Db,
  teamId: string,
  files: Readonly<Record<string, string>>,
) => {
  const copies = Object.entries(files).flatMap(([path, text]) => {
    const name = templateNameOf(path);
    return name ? [{ name, path, hash: sha256(text) }] : [];
  });
  if (copies.length === 0) return [];
  const versions = await db.stepTemplateVersion.findMany({
    where: { teamId, contentHash: { in: copies.map((c) => c.hash) } },
    select: { number: true, contentHash: true, template: { select: { name: true } } },
  });
  return copies
    .map((c) => ({
      name: c.name,
      path: c.path,
      version:
        versions.find((v) => v.contentHash === c.hash && v.template.name === c.name)?.number ??
        null,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
};

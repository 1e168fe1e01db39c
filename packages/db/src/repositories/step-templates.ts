/**
 * A team's step templates: saved as numbered immutable versions (text and SHA-256), the
 * current one found by name when a workflow is saved. Which version a saved workflow
 * pinned is read back from the copy in its bundle, by hash. Every query filters on teamId.
 */
import { libraryOf, templateNameOf, type TemplateLibrary } from "@switchyard/core/workflow";
import type { Db } from "../client";
import {
  deleteLibraryItem,
  saveLibraryVersion,
  sha256,
  type Library,
  type LibrarySave,
} from "./versioned-library";

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

const TEMPLATES: Library = {
  kind: "template",
  itemKey: "templateId",
  delegates: (tx) =>
    ({ item: tx.stepTemplate, version: tx.stepTemplateVersion }) as unknown as ReturnType<
      Library["delegates"]
    >,
};

/**
 * Saves a new version of the template (creating it on first save) unless the text is
 * unchanged, with an audit entry in the same transaction.
 */
export const saveStepTemplateVersion = async (db: Db, input: LibrarySave) => {
  const { item, version, created } = await saveLibraryVersion(db, TEMPLATES, input);
  return { template: item, version, created };
};

/** Deletes the template; workflows saved with it keep the copy their versions pinned. */
export const deleteStepTemplate = (
  db: Db,
  input: { teamId: string; name: string; actorUserId: string },
) => deleteLibraryItem(db, TEMPLATES, input);

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

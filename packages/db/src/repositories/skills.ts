/**
 * A team's skills library: agentskills.io skills saved by name as numbered immutable versions
 * of their SKILL.md (text and SHA-256). Saving a workflow pins the current version of each
 * skill it names but does not carry itself; which version a saved workflow pinned is read
 * back from that copy, by hash. Every query filters on teamId.
 */
import type { Db } from "../client";
import {
  deleteLibraryItem,
  saveLibraryVersion,
  sha256,
  type Library,
  type LibrarySave,
} from "./versioned-library";
const versionFields = { id: true, number: true, contentHash: true, createdAt: true } as const;

/** The team's skills by name, each with its current version. */
export const listSkills = (db: Db, teamId: string) =>
  db.skill.findMany({
    where: { teamId },
    orderBy: { name: "asc" },
    include: { currentVersion: { select: versionFields } },
  });

/**
 * The team's skill of that name: its current text (or that of version `number`) and every
 * version, newest first; undefined when the team has none (or no such version).
 */
export const getSkill = async (db: Db, teamId: string, name: string, number?: number) => {
  const skill = await db.skill.findFirst({
    where: { teamId, name },
    include: {
      currentVersion: true,
      versions: {
        orderBy: { number: "desc" },
        select: { ...versionFields, createdById: true },
      },
    },
  });
  if (!skill?.currentVersion) return undefined;
  const shown =
    number === undefined
      ? skill.currentVersion
      : await db.skillVersion.findFirst({ where: { teamId, skillId: skill.id, number } });
  return shown ? { ...skill, shown } : undefined;
};

const SKILLS: Library = {
  kind: "skill",
  itemKey: "skillId",
  delegates: (tx) =>
    ({ item: tx.skill, version: tx.skillVersion }) as unknown as ReturnType<Library["delegates"]>,
};

/**
 * Stores a new version of the skill (creating the skill on its first save) unless its text is
 * the current one, with an audit entry in the same transaction.
 */
export const saveSkillVersion = (db: Db, input: LibrarySave) =>
  saveLibraryVersion(db, SKILLS, input);

/** Deletes the skill and its versions; saved workflow versions keep the copy they pinned. */
export const deleteSkill = (db: Db, input: { teamId: string; name: string; actorUserId: string }) =>
  deleteLibraryItem(db, SKILLS, input);

/** The current SKILL.md of each of the named skills the team has, by name. */
export const currentSkillTexts = async (db: Db, teamId: string, names: readonly string[]) => {
  if (names.length === 0) return new Map<string, { number: number; content: string }>();
  const rows = await db.skill.findMany({
    where: { teamId, name: { in: [...names] } },
    select: { name: true, currentVersion: { select: { number: true, content: true } } },
  });
  return new Map(rows.flatMap((r) => (r.currentVersion ? [[r.name, r.currentVersion]] : [])));
};

/**
 * Which version of the team's skill each pinned copy is (by its text's hash), or null for a
 * copy that is no version the team has (the skill was deleted, or the copy came with the files).
 */
export const pinnedSkillVersions = async (
  db: Db,
  teamId: string,
  copies: readonly { name: string; path: string; text: string }[],
) => {
  if (copies.length === 0) return [];
  const hashed = copies.map((c) => ({ ...c, hash: sha256(c.text) }));
  const known = await db.skillVersion.findMany({
    where: { teamId, contentHash: { in: hashed.map((c) => c.hash) } },
    select: { number: true, contentHash: true, skill: { select: { name: true } } },
  });
  return hashed
    .map(({ name, path, hash }) => ({
      name,
      path,
      version: known.find((k) => k.contentHash === hash && k.skill.name === name)?.number ?? null,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
};

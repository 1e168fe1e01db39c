/**
 * Pins the team's library skills into a bundle being saved. A `skills:` name the bundle does
 * not hold itself (in AWF's folders beside the workflow) is the team's skill of that name:
 * its current SKILL.md is copied to `.switchyard/skills/<name>/SKILL.md`, so the version runs
 * with the text that was current when it was saved, whatever the library does later. Copies
 * pinned before are replaced by the current version; a copy of a skill the team no longer
 * has is kept, as the version that pinned it ran with it.
 */
import { posix } from "node:path";
import {
  SKILL_LIBRARY_DIR,
  bundleReader,
  bundleSkillDir,
  type Workflow,
} from "@switchyard/core/workflow";
import { currentSkillTexts, pinnedSkillVersions, type Db } from "@switchyard/db";

/** The library copies' folder for a workflow file, as a bundle path prefix. */
const libraryDirOf = (entry: string) => `${posix.join(posix.dirname(entry), SKILL_LIBRARY_DIR)}/`;

/** The names of the skills the workflow's agent steps name (not by `path`). */
const skillNamesOf = (workflow: Workflow | undefined) => {
  const names = new Set<string>();
  for (const state of workflow?.states.values() ?? [])
    if (state.kind === "agent")
      for (const ref of state.skills ?? []) if (ref.name !== undefined) names.add(ref.name);
  return [...names];
};

export const pinSkills = async (
  db: Db,
  teamId: string,
  entry: string,
  files: Record<string, string>,
  /** the bundle's workflow as parsed (undefined when it does not parse) */
  workflow: Workflow | undefined,
): Promise<Record<string, string>> => {
  const source = files[entry];
  if (source === undefined) return files;
  const dir = libraryDirOf(entry);
  const own = Object.fromEntries(Object.entries(files).filter(([p]) => !p.startsWith(dir)));
  const reader = bundleReader(own, entry);
  const wanted = skillNamesOf(workflow).filter(
    (name) => bundleSkillDir(reader, name) === undefined,
  );
  const library = await currentSkillTexts(db, teamId, wanted);
  const pinned = { ...own };
  for (const name of wanted) {
    const path = `${dir}${name}/SKILL.md`;
    const text = library.get(name)?.content ?? files[path];
    if (text !== undefined) pinned[path] = text;
  }
  return pinned;
};

/** The library skills a saved bundle pinned, with the team's version each copy is. */
export const pinnedSkills = (
  db: Db,
  teamId: string,
  entry: string,
  files: Readonly<Record<string, string>>,
) => {
  const dir = libraryDirOf(entry);
  const copies = Object.entries(files).flatMap(([path, text]) => {
    const m = path.startsWith(dir) ? /^([^/]+)\/SKILL\.md$/.exec(path.slice(dir.length)) : null;
    return m ? [{ name: m[1]!, path, text }] : [];
  });
  return pinnedSkillVersions(db, teamId, copies);
};

/**
 * Finds the skills an agent step names, in the workflow's bundle, as AWF finds them on disk:
 * a name in the project's discovery folders (`.awf/skills`, `.agents/skills`,
 * `.claude/skills` beside the workflow file, first match wins), a `path:` as a folder
 * relative to the workflow file. Validation at save and the engine at run time both ask here,
 * so a skill that validated is the skill that runs (`switchyard run` looks in the person's
 * folders too, loading each skill with loadSkill).
 */
import { posix } from "node:path";
import type { BundleFiles, FoundSkill, SkillProblem } from "../model/engine-ports";
import type { SkillRef } from "../model/workflow-types";

/** The project discovery folders of AWF, in its order, relative to the workflow file. */
const SKILL_FOLDERS = [".awf/skills", ".agents/skills", ".claude/skills"] as const;

/**
 * Where saving pins a skill from the team's library: searched after AWF's folders, so a
 * skill the bundle has itself always wins, and kept with the version so a run reads the
 * text that was current when the workflow was saved.
 */
export const SKILL_LIBRARY_DIR = ".switchyard/skills";

/** AWF warns past this size: the text may crowd the model's context. */
export const LARGE_SKILL_BYTES = 500 * 1024;

/** SKILL.md less a leading `---` … `---` block, trimmed. */
export const skillBody = (text: string): string => {
  const m = /^\uFEFF?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return (m ? text.slice(m[0].length) : text).trim();
};

/**
 * The skill in folder `dir` of `files`: found, a folder without SKILL.md, or undefined when
 * there is nothing there.
 */
export const loadSkill = (
  files: BundleFiles,
  dir: string,
  label: string,
): FoundSkill | SkillProblem | undefined => {
  const text = files.read(`${dir}/SKILL.md`);
  const others = files.list?.(dir) ?? [];
  if (text === undefined)
    return others.length > 0
      ? { code: "USER.SKILL.MISSING_SKILLMD", message: `skill ${label}: ${dir} has no SKILL.md` }
      : undefined;
  const warnings: FoundSkill["warnings"] = [];
  const body = skillBody(text);
  if (body === "")
    warnings.push({
      code: "USER.SKILL.EMPTY_CONTENT",
      message: `skill ${label} has empty SKILL.md (no content to inject)`,
    });
  if (Buffer.byteLength(text) > LARGE_SKILL_BYTES)
    warnings.push({
      code: "USER.SKILL.TOO_LARGE",
      message: `skill ${label} has a SKILL.md over 500KB, which crowds the model's context`,
    });
  return {
    name: posix.basename(dir),
    dir,
    body,
    resources: others.filter((f) => f !== "SKILL.md"),
    warnings,
  };
};

/** The folder a name resolves to in the bundle itself (AWF's folders), if any. */
export const bundleSkillDir = (files: BundleFiles, name: string): string | undefined =>
  SKILL_FOLDERS.map((f) => `${f}/${name}`).find(
    (dir) => files.read(`${dir}/SKILL.md`) !== undefined || (files.list?.(dir) ?? []).length > 0,
  );

export const findSkill = (files: BundleFiles, ref: SkillRef): FoundSkill | SkillProblem => {
  if (ref.name !== undefined) {
    for (const folder of [...SKILL_FOLDERS, SKILL_LIBRARY_DIR]) {
      const found = loadSkill(files, `${folder}/${ref.name}`, `'${ref.name}'`);
      if (found) return found;
    }
    return {
      code: "USER.SKILL.NOT_FOUND",
      message: `skill '${ref.name}' not found in search paths (${SKILL_FOLDERS.join(", ")} beside the workflow) nor in the team's skills library`,
    };
  }
  const label = `'${ref.path}'`;
  if (posix.isAbsolute(ref.path) || ref.path.startsWith("~"))
    return {
      code: "USER.SKILL.NOT_FOUND",
      message: `skill ${label} is outside the workflow's bundle: put the folder in the bundle and name it relative to the workflow file`,
    };
  const dir = posix.normalize(ref.path).replace(/\/+$/, "");
  if (dir === ".." || dir.startsWith("../"))
    return {
      code: "USER.SKILL.NOT_FOUND",
      message: `skill ${label} is outside the workflow's bundle`,
    };
  return (
    loadSkill(files, dir, label) ?? {
      code: "USER.SKILL.NOT_FOUND",
      message: `skill ${label} not found: no folder ${dir} in the workflow's bundle`,
    }
  );
};

/**
 * Where `switchyard run` and `validate` find an agent step's skills, as AWF finds them on a
 * person's machine: a name in AWF_SKILLS_PATH's folders alone when it is set, else in the
 * workflow folder's .awf/skills, .agents/skills and .claude/skills, then the person's
 * $XDG_CONFIG_HOME/awf/skills, ~/.agents/skills and ~/.claude/skills (first match wins); a
 * `path:` relative to the workflow folder (or absolute, or under `~`). Each folder is read as
 * the workflow folder is (workflow-folder.ts: no symlink followed below it), and a skill is
 * loaded and later injected by core's own code, with its absolute folder, as AWF shows it.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { isAppError } from "@switchyard/core/errors";
import {
  loadSkill,
  type BundleFiles,
  type FoundSkill,
  type SkillFinder,
  type SkillProblem,
} from "@switchyard/core/workflow";
import { openWorkflowFolder, type WorkflowFolder } from "./workflow-folder";

const PROJECT_FOLDERS = [".awf/skills", ".agents/skills", ".claude/skills"] as const;

type Root = { dir: string; files: () => BundleFiles | undefined };

const filesOf = (folder: WorkflowFolder, prefix: string): BundleFiles => {
  const under = (p: string) => (prefix === "" ? p : `${prefix}/${p}`);
  return { read: (p) => folder.read(under(p)), list: (d) => folder.list(under(d)) };
};

/** `~` and `~/x` as the person's HOME. */
const expandHome = (p: string, home: string | undefined) =>
  home && (p === "~" || p.startsWith("~/")) ? path.join(home, p.slice(1)) : p;

/** The folders a name is looked for in, in AWF's order. */
export const skillSearchFolders = (
  workflowDir: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string[] => {
  const home = env.HOME;
  const override = env.AWF_SKILLS_PATH?.split(":").filter(Boolean) ?? [];
  if (override.length > 0) return override.map((p) => path.resolve(cwd, expandHome(p, home)));
  const project = PROJECT_FOLDERS.map((f) => path.join(workflowDir, f));
  if (!home) return project;
  const config = env.XDG_CONFIG_HOME || path.join(home, ".config");
  return [
    ...project,
    path.join(config, "awf/skills"),
    path.join(home, ".agents/skills"),
    path.join(home, ".claude/skills"),
  ];
};

export type LocalSkills = SkillFinder & { close(): void };

/** The skill finder over `folder` (the workflow's, held open by the caller) and the person's folders. */
export const localSkills = (
  folder: WorkflowFolder,
  env: NodeJS.ProcessEnv,
  cwd: string,
): LocalSkills => {
  const opened = new Map<string, WorkflowFolder | undefined>();
  /** A folder of its own, opened once (undefined when it is not a folder). */
  const openRoot = (dir: string) => {
    if (!opened.has(dir))
      opened.set(
        dir,
        existsSync(dir) && statSync(dir).isDirectory() ? openWorkflowFolder(dir) : undefined,
      );
    const held = opened.get(dir);
    return held && filesOf(held, "");
  };
  /** The workflow folder serves what lies inside it; anything else is a folder of its own. */
  const rootOf = (dir: string): Root => {
    const inside = path.relative(folder.dir, dir);
    if (inside === "" || (!inside.startsWith("..") && !path.isAbsolute(inside)))
      return { dir, files: () => filesOf(folder, inside.split(path.sep).join("/")) };
    return { dir, files: () => openRoot(dir) };
  };
  const loadFrom = (root: Root, name: string, label: string) => {
    const files = root.files();
    const found = files && loadSkill(files, name, label);
    return found && "body" in found ? { ...found, dir: path.join(root.dir, name) } : found;
  };
  const find = (ref: Parameters<SkillFinder["find"]>[0]): FoundSkill | SkillProblem => {
    if (ref.name !== undefined) {
      const folders = skillSearchFolders(folder.dir, env, cwd);
      for (const dir of folders) {
        const found = loadFrom(rootOf(dir), ref.name, `'${ref.name}'`);
        if (found) return found;
      }
      return {
        code: "USER.SKILL.NOT_FOUND",
        message: `skill '${ref.name}' not found in search paths (${folders.join(", ")})`,
      };
    }
    const full = path.resolve(folder.dir, expandHome(ref.path, env.HOME));
    const found = loadFrom(rootOf(path.dirname(full)), path.basename(full), `'${ref.path}'`);
    return (
      found ?? {
        code: "USER.SKILL.NOT_FOUND",
        message: `skill '${ref.path}' not found: no folder ${full}`,
      }
    );
  };
  return {
    // A folder that may not be read (a symlink, a FIFO) is the step's problem, at its line.
    find: (ref) => {
      try {
        return find(ref);
      } catch (error) {
        if (!isAppError(error)) throw error;
        return { code: error.code, message: error.message };
      }
    },
    close: () => {
      for (const held of opened.values()) held?.close();
    },
  };
};

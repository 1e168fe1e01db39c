/**
 * Reads an agent step's `skills:` list as AWF writes it: a skill's name (found in the
 * discovery folders) or `{path: ./dir}` (a folder of the workflow's bundle). Whether each
 * one exists is checked later, against the bundle (validate-workflow.ts).
 */
import { isMap, isScalar } from "yaml";
import type { SkillRef } from "../model/workflow-types";
import { codes, report, sourceOf, YamlReader, type Diagnostics } from "./yaml-reader";

/** A skill's name is a folder's name: no separators, not `.` or `..`. */
const SKILL_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;

const bad = (diag: Diagnostics, node: Parameters<typeof sourceOf>[1], path: string, msg: string) =>
  report(diag, "error", codes.invalid, msg, sourceOf(diag, node, path));

export const readSkills = (r: YamlReader): SkillRef[] | undefined => {
  const items = r.seq("skills");
  if (!items) return undefined;
  const refs: SkillRef[] = [];
  for (const { node, path } of items) {
    const source = sourceOf(r.diag, node, path);
    if (isScalar(node)) {
      const name: unknown = node.value;
      if (typeof name !== "string" || !SKILL_NAME.test(name))
        bad(
          r.diag,
          node,
          path,
          `a skill is a name (letters, digits, ".", "_", "-") or {path: ./dir}`,
        );
      else refs.push({ name, source });
      continue;
    }
    if (!isMap(node)) {
      bad(r.diag, node, path, "a skill is a name or {path: ./dir}");
      continue;
    }
    const item = new YamlReader(r.diag, node, path);
    item.checkKeys(["path"]);
    const dir = item.str("path", true);
    if (dir === undefined) continue;
    if (dir.trim() === "" || dir.includes("{{"))
      item.error(codes.invalid, "a skill's path is a folder of the workflow's bundle", "path");
    else refs.push({ path: dir, source: item.where("path") });
  }
  return refs;
};

/**
 * Checks a SKILL.md that a team saves in its skills library against the agentskills.io
 * format: a front matter block with `name` (the name it is saved under: lowercase letters,
 * digits and single hyphens, at most 64) and `description` (at most 1024 characters), and
 * only the format's other fields (`license`, `compatibility`, `metadata`, `allowed-tools`).
 * A bundle's own skills are not held to this: AWF reads them by folder and drops the front
 * matter, and so does Switchyard.
 */
import { LineCounter, isMap, isScalar, parseDocument, type Node } from "yaml";
import { AppError } from "../../errors/app-error";
import { LARGE_SKILL_BYTES, skillBody } from "./find-skill";

/** agentskills.io's name rule. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

type SkillFileCheck = {
  errors: AppError[];
  warnings: AppError[];
  /** The front matter's description, when it has one. */
  description: string;
};

export const checkSkillFile = (name: string, text: string): SkillFileCheck => {
  const file = `skills/${name}/SKILL.md`;
  const errors: AppError[] = [];
  const warnings: AppError[] = [];
  const fail = (message: string, line = 1, column = 1, path?: string) =>
    errors.push(
      new AppError("USER.SKILL.INVALID_FRONTMATTER", `${file}: ${message}`, {
        location: { file, line, column, ...(path ? { path } : {}) },
      }),
    );
  if (!SKILL_NAME.test(name))
    fail(
      `skill name "${name}" must be 1 to 64 lowercase letters, digits and single hyphens, not starting or ending with one`,
    );
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  const close = open ? /^---[ \t]*$/m.exec(text.slice(open[0].length)) : null;
  let description = "";
  if (!open || !close) {
    fail("SKILL.md must start with a front matter block between --- lines (name, description)");
  } else {
    const yamlText = text.slice(open[0].length, open[0].length + close.index);
    const lineCounter = new LineCounter();
    const doc = parseDocument(yamlText, { lineCounter, uniqueKeys: true });
    // The front matter starts on the second line of the file.
    const at = (node: Node | null | undefined) => {
      const pos = node?.range ? lineCounter.linePos(node.range[0]) : { line: 0, col: 1 };
      return [pos.line + 1, pos.col] as const;
    };
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      const pos = lineCounter.linePos(e.pos[0]);
      fail(`front matter is not valid YAML: ${e.message.split("\n")[0]}`, pos.line + 1, pos.col);
    } else if (!isMap(doc.contents)) {
      fail("front matter must be a mapping of name, description and the format's other fields", 2);
    } else {
      const seen = new Set<string>();
      for (const pair of doc.contents.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : "";
        const [line, col] = at(pair.key);
        seen.add(key);
        if (!FIELDS.includes(key)) {
          fail(
            `unknown front matter field "${key}" (allowed: ${FIELDS.join(", ")})`,
            line,
            col,
            key,
          );
          continue;
        }
        const value = pair.value as Node | null;
        const [vline, vcol] = value ? at(value) : [line, col];
        if (key === "metadata") {
          const ok =
            isMap(value) &&
            value.items.every(
              (p) => isScalar(p.key) && isScalar(p.value) && typeof p.value.value === "string",
            );
          if (!ok) fail("metadata must map names to strings", vline, vcol, key);
          continue;
        }
        const v = isScalar(value) ? value.value : undefined;
        if (typeof v !== "string" || v.trim() === "") {
          fail(`${key} must be a non-empty string`, vline, vcol, key);
          continue;
        }
        if (key === "name" && v !== name)
          fail(`name is "${v}" but the skill is saved as "${name}"`, vline, vcol, key);
        if (key === "description") {
          description = v;
          if (v.length > 1024) fail("description is longer than 1024 characters", vline, vcol, key);
        }
        if (key === "compatibility" && v.length > 500)
          fail("compatibility is longer than 500 characters", vline, vcol, key);
      }
      for (const required of ["name", "description"])
        if (!seen.has(required)) fail(`front matter has no ${required}`, 2, 1, required);
    }
  }
  if (skillBody(text) === "")
    warnings.push(
      new AppError(
        "USER.SKILL.EMPTY_CONTENT",
        `skill '${name}' has empty SKILL.md (no content to inject)`,
        {
          location: { file },
        },
      ),
    );
  if (Buffer.byteLength(text) > LARGE_SKILL_BYTES)
    warnings.push(
      new AppError(
        "USER.SKILL.TOO_LARGE",
        `skill '${name}' has a SKILL.md over 500KB, which crowds the model's context`,
        { location: { file } },
      ),
    );
  return { errors, warnings, description };
};

/**
 * Puts a step's skills before its prompt in AWF's layout: one `<skill_content>` block per
 * skill, in the order the step names them, each with its folder and the files bundled with
 * it, then the prompt. The skill's text is used as written (no `{{ }}` rendering).
 */
import type { FoundSkill } from "../model/engine-ports";

const attr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const block = (skill: FoundSkill): string => {
  const lines = [
    `<skill_content name="${attr(skill.name)}">`,
    skill.body,
    "",
    `Skill directory: ${skill.dir}`,
    "Relative paths in this skill are relative to the skill directory.",
  ];
  if (skill.resources.length > 0)
    lines.push(
      "",
      "<skill_resources>",
      ...skill.resources.map((f) => `  <file>${attr(f)}</file>`),
      "</skill_resources>",
    );
  lines.push("</skill_content>");
  return lines.join("\n");
};

export const injectSkills = (prompt: string, skills: readonly FoundSkill[]): string =>
  skills.length === 0 ? prompt : [...skills.map(block), prompt].join("\n\n");

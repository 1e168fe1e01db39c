import { expect, it } from "vitest";
import { checkSkillFile } from "./check-skill-file";

const found = (name: string, text: string) =>
  checkSkillFile(name, text).errors.map((e) => [e.code, e.location?.line, e.location?.column]);

it("accepts agentskills.io front matter and reads its description", () => {
  const check = checkSkillFile(
    "go-style",
    "---\nname: go-style\ndescription: Go style\nlicense: MIT\nmetadata:\n  team: core\nallowed-tools: Read Grep\n---\nUse gofmt.\n",
  );
  expect(check.errors).toEqual([]);
  expect(check.warnings).toEqual([]);
  expect(check.description).toBe("Go style");
});

it("places each front matter problem at its line and column", () => {
  expect(found("go-style", "Use gofmt.\n")).toEqual([["USER.SKILL.INVALID_FRONTMATTER", 1, 1]]);
  expect(found("go-style", "---\nname: other\ndescription: ''\nmodel: x\n---\nbody\n")).toEqual([
    ["USER.SKILL.INVALID_FRONTMATTER", 2, 7],
    ["USER.SKILL.INVALID_FRONTMATTER", 3, 14],
    ["USER.SKILL.INVALID_FRONTMATTER", 4, 1],
  ]);
  expect(found("go-style", "---\nname: go-style\n---\nbody\n")).toEqual([
    ["USER.SKILL.INVALID_FRONTMATTER", 2, 1],
  ]);
  expect(found("go-style", "---\nname: [go\n---\nbody\n")[0]?.[0]).toBe(
    "USER.SKILL.INVALID_FRONTMATTER",
  );
  expect(
    checkSkillFile("Go--Style", "---\nname: Go--Style\ndescription: d\n---\nx\n").errors[0]
      ?.message,
  ).toMatch(/lowercase letters, digits and single hyphens/);
});

it("warns, as AWF does, of a skill with nothing to inject", () => {
  const check = checkSkillFile("go-style", "---\nname: go-style\ndescription: d\n---\n\n");
  expect(check.errors).toEqual([]);
  expect(check.warnings.map((w) => w.code)).toEqual(["USER.SKILL.EMPTY_CONTENT"]);
});

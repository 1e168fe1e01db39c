/**
 * Skills end to end in core: `skills:` read with its places, found in the bundle at
 * validation (AWF's error for a missing one and warning for an empty one, at the line), and
 * put before the prompt in AWF's layout when the step runs.
 */
import { describe, expect, it } from "vitest";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentRequest } from "../model/engine-ports";
import { runWorkflow } from "./run-workflow";
import { bundleReader } from "../parse/file-references";
import { validateWorkflow } from "../parse/validate-workflow";
import { parseWorkflow } from "../parse/parse-workflow";
import { localRunner, parseOk } from "@switchyard/testing/workflow";
import { skillBody } from "../skills/find-skill";

const source = `
name: review
states:
  initial: review
  review:
    type: agent
    provider: claude
    prompt: "Review {{.inputs.code}}"
    skills:
      - go-conventions
      - path: ./custom-skills/security-audit
    on_success: done
  done: { type: terminal }
inputs: [{ name: code }]
`;

const bundle = {
  "flows/review.yaml": source,
  "flows/.agents/skills/go-conventions/SKILL.md":
    "---\nname: go-conventions\ndescription: Go rules\n---\n\nUse gofmt.\nReturn early.\n",
  "flows/.claude/skills/go-conventions/SKILL.md": "shadowed by .agents",
  "flows/custom-skills/security-audit/SKILL.md": "Check {{.inputs.code}} for secrets.",
  "flows/custom-skills/security-audit/scripts/scan.sh": "echo scan",
  "flows/custom-skills/security-audit/references/list.md": "- one",
};

const validate = (files: Record<string, string>) =>
  validateWorkflow(source, "flows/review.yaml", {
    files: bundleReader(files, "flows/review.yaml"),
  });

describe("skills", () => {
  it("strips front matter only when it leads the file", () => {
    expect(skillBody("---\nname: a\n---\nBody\n")).toBe("Body");
    expect(skillBody("Body\n---\nx: 1\n---\n")).toBe("Body\n---\nx: 1\n---");
    expect(skillBody("---\n---\n")).toBe("");
  });

  it("validates names and paths against the bundle, at the skill's line", async () => {
    expect((await validate(bundle)).errors).toEqual([]);
    const { "flows/custom-skills/security-audit/SKILL.md": _, ...noSkillMd } = bundle;
    const missing = await validate({
      ...noSkillMd,
      "flows/.agents/skills/go-conventions/SKILL.md": "",
      "flows/.claude/skills/go-conventions/SKILL.md": "",
    });
    expect(missing.errors.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      [
        "USER.SKILL.MISSING_SKILLMD",
        11,
        "states.review.skills[1].path: skill './custom-skills/security-audit': custom-skills/security-audit has no SKILL.md",
      ],
    ]);
    expect(missing.warnings.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      [
        "USER.SKILL.EMPTY_CONTENT",
        10,
        "states.review.skills[0]: skill 'go-conventions' has empty SKILL.md (no content to inject)",
      ],
    ]);
    const none = await validate({ "flows/review.yaml": source });
    expect(none.errors.map((e) => [e.code, e.location?.line])).toEqual([
      ["USER.SKILL.NOT_FOUND", 10],
      ["USER.SKILL.NOT_FOUND", 11],
    ]);
    expect(none.errors[0]?.message).toContain("skill 'go-conventions' not found in search paths");
  });

  it("refuses a malformed entry and a path outside the bundle", async () => {
    const bad = source.replace("- go-conventions", "- ../up").replace("./custom-skills", "/etc");
    const parsed = parseWorkflow(bad, "w.yaml");
    expect(parsed.errors.map((e) => e.code)).toEqual(["WORKFLOW.VALIDATION.INVALID_VALUE"]);
    const abs = await validateWorkflow(source.replace("./custom-skills", "/etc"), "w.yaml", {
      files: bundleReader({}, "w.yaml"),
    });
    expect(abs.errors.map((e) => e.message)).toContain(
      "states.review.skills[1].path: skill '/etc/security-audit' is outside the workflow's bundle: put the folder in the bundle and name it relative to the workflow file",
    );
  });

  it("puts each skill before the prompt in AWF's layout, its text not rendered", async () => {
    const seen: AgentRequest[] = [];
    const outcome = await runWorkflow(parseOk(source, "flows/review.yaml"), {
      runProcess: localRunner(),
      signal: new AbortController().signal,
      scrubber: new Scrubber(),
      inputs: { code: "main.go" },
      files: bundleReader(bundle, "flows/review.yaml"),
      agents: {
        execute: async (req) => {
          seen.push(req);
          return { output: "ok" };
        },
      },
    });
    expect(outcome.status).toBe("succeeded");
    expect(seen[0]?.prompt).toBe(
      [
        '<skill_content name="go-conventions">',
        "Use gofmt.",
        "Return early.",
        "",
        "Skill directory: .agents/skills/go-conventions",
        "Relative paths in this skill are relative to the skill directory.",
        "</skill_content>",
        "",
        '<skill_content name="security-audit">',
        "Check {{.inputs.code}} for secrets.",
        "",
        "Skill directory: custom-skills/security-audit",
        "Relative paths in this skill are relative to the skill directory.",
        "",
        "<skill_resources>",
        "  <file>references/list.md</file>",
        "  <file>scripts/scan.sh</file>",
        "</skill_resources>",
        "</skill_content>",
        "",
        "Review main.go",
      ].join("\n"),
    );
  });
});

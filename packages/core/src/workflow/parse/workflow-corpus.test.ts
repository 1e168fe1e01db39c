/**
 * The fixture corpus: every file in fixtures/ states its expected result in its header
 * (`# expect: ok`, `# expect: CODE [line:col]`, `# expect-warning: CODE`), and parsing must
 * produce exactly those errors and warnings of exactly those codes. fixtures/awf-guide/
 * holds one workflow for each YAML example of the AWF guide's pages this language follows
 * (each header names its section; docs/workflows.md lists them), parsed with the template
 * files of its templates/ folder, which are read and checked the same way.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";
import { readTemplateFile } from "./read-template";
import { NO_TEMPLATES, type TemplateLibrary } from "./template-library";
import {
  guideLibrary,
  guideTemplateFiles,
  guideTemplateSource,
  guideWorkflows,
} from "./testing/awf-guide";

const dir = path.join(import.meta.dirname, "fixtures");
const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));

const expectations = (source: string) => {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const m of source.matchAll(/^# expect(-warning)?: (\S+)(?: (\d+:\d+))?$/gm)) {
    if (m[2] === "ok") continue;
    (m[1] ? warnings : errors).push(m[3] ? `${m[2]} ${m[3]}` : m[2]!);
  }
  return { errors, warnings };
};

const expectResult = (file: string, templates: TemplateLibrary) => {
  const source = readFileSync(path.join(dir, file), "utf8");
  const expected = expectations(source);
  const result = parseWorkflow(source, file, undefined, { templates });
  const unmatched = [...expected.errors];
  const extra: string[] = [];
  const ordered = [...result.errors].sort((a, b) => a.code.localeCompare(b.code));
  for (const e of ordered) {
    const exact = unmatched.indexOf(`${e.code} ${e.location?.line}:${e.location?.column}`);
    const byCode = exact >= 0 ? exact : unmatched.indexOf(e.code);
    if (byCode >= 0) unmatched.splice(byCode, 1);
    else extra.push(`${e.location?.line}:${e.location?.column} ${e.code} ${e.message}`);
  }
  expect({ unmatched, extra }).toEqual({ unmatched: [], extra: [] });
  expect(new Set(result.warnings.map((x) => x.code))).toEqual(new Set(expected.warnings));
  if (expected.errors.length === 0) expect(result.workflow).toBeDefined();
  for (const e of result.errors) {
    expect(e.location?.file).toBe(file);
    expect(e.location?.path).toBeTruthy();
  }
};

describe("workflow fixture corpus", () => {
  it("has fixtures", () => expect(files.length).toBeGreaterThan(8));

  it.each(files)("%s gives its expected result", (file) => expectResult(file, NO_TEMPLATES));
});

describe("AWF guide examples", () => {
  const guideFiles = guideWorkflows.map((f) => `awf-guide/${f}`);
  it("has them", () => expect(guideFiles.length).toBeGreaterThan(20));

  it.each(guideFiles)("%s gives its expected result", (file) => expectResult(file, guideLibrary));

  it.each(guideTemplateFiles)("template %s reads as its header says", (file) => {
    const source = guideTemplateSource(file);
    const result = readTemplateFile(source, file);
    const expected = expectations(source).errors;
    expect(result.errors.map((e) => e.code).sort()).toEqual(expected.sort());
    if (expected.length === 0) expect(result.template?.name).toBe(file.replace(/\.yaml$/, ""));
  });
});

/**
 * The fixture corpus: every file in fixtures/ states its expected result in its header
 * (`# expect: ok`, `# expect: CODE [line:col]`, `# expect-warning: CODE`), and parsing must
 * produce exactly those errors and warnings of exactly those codes.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

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

describe("workflow fixture corpus", () => {
  it("has fixtures", () => expect(files.length).toBeGreaterThan(8));

  it.each(files)("%s gives its expected result", (file) => {
    const source = readFileSync(path.join(dir, file), "utf8");
    const expected = expectations(source);
    const result = parseWorkflow(source, file);
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
  });
});

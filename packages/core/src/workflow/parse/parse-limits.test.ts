/**
 * Hostile workflow files: size, alias expansion and nesting limits hold without hanging
 * or crashing.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

describe("hostile input", () => {
  it("refuses a file over the size limit before parsing it", () => {
    const r = parseWorkflow(`name: big\n# ${"x".repeat(2 * 1024 * 1024)}\n`, "big.yaml");
    expect(r.errors.map((e) => e.code)).toEqual(["WORKFLOW.PARSE.LIMIT_EXCEEDED"]);
  });

  it("refuses alias expansion bombs quickly", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    const started = performance.now();
    const r = parseWorkflow(`${lines.join("\n")}\nname: bomb\nstates: {initial: a}\n`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.errors.map((e) => e.code)).toContain("WORKFLOW.PARSE.LIMIT_EXCEEDED");
  });

  it("refuses nesting deeper than the limit without overflowing the stack", () => {
    const block = Array.from({ length: 100 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n");
    const r = parseWorkflow(`name: deep\nstates:\n  initial: a\n${block.replace(/^/gm, "  ")} x\n`);
    expect(r.errors.map((e) => e.code)).toEqual(["WORKFLOW.PARSE.LIMIT_EXCEEDED"]);
    const flow = parseWorkflow(`name: deep\nstates: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
    expect(flow.errors.length).toBeGreaterThan(0);
  });

  it("accepts ordinary aliases and reports a non-mapping document", () => {
    const ok = parseWorkflow(
      "name: a\nstates:\n  initial: s\n  s: &t\n    type: terminal\n  t: *t\n",
    );
    expect(ok.errors).toEqual([]);
    expect(ok.workflow?.states.get("t")?.kind).toBe("terminal");
    expect(parseWorkflow("just text").errors[0]?.code).toBe("WORKFLOW.VALIDATION.INVALID_VALUE");
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { validateWorkflow } from "@switchyard/core/workflow";
import { demoAgentYaml } from "./seed-demo-agent";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "seed-workflows");

it("seeds only demo workflows that validate without errors or warnings", async () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml"));
  expect(files.length).toBeGreaterThanOrEqual(3);
  for (const file of files) {
    const result = await validateWorkflow(readFileSync(path.join(DIR, file), "utf8"), file, {
      files: { read: () => undefined },
    });
    expect({
      file,
      errors: result.errors.map((e) => e.message),
      warnings: result.warnings.map((e) => e.message),
    }).toEqual({
      file,
      errors: [],
      warnings: [],
    });
    expect(result.workflow?.name).toBe(file.replace(/\.yaml$/, ""));
  }
});

it("seeds a demo agent workflow that validates against a demo model URL, naming it and the demo connector", async () => {
  const yaml = demoAgentYaml("http://127.0.0.1:56390/v1");
  const result = await validateWorkflow(yaml, "demo-agent.yaml", {
    files: { read: () => undefined },
  });
  expect({
    errors: result.errors.map((e) => e.message),
    warnings: result.warnings.map((e) => e.message),
  }).toEqual({ errors: [], warnings: [] });
  expect(result.workflow?.name).toBe("demo-agent");
  expect(yaml).toContain("base_url: http://127.0.0.1:56390/v1");
  expect(yaml).toContain("provider: openai_compatible");
  expect(yaml).toContain("connectors: [demo]");
});

/**
 * The corpus's every-key fixture runs end to end: real shells, a fake agent provider, an
 * in-memory bundle, a sub-workflow through the resolver and variables through the port.
 */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { Scrubber } from "../../secrets/scrubber";
import type { ProcessRunner } from "../model/engine-ports";
import { runWorkflow } from "./run-workflow";
import { localRunner, memoryEventSink, memoryFiles, parseOk } from "@switchyard/testing/workflow";

it("runs valid-full.yaml from initial to its success terminal", async () => {
  const workflow = parseOk(
    readFileSync(path.join(import.meta.dirname, "../parse/fixtures/valid-full.yaml"), "utf8"),
    "valid-full.yaml",
  );
  const child = parseOk(
    "name: child\ninputs: [{ name: file_path }]\noutputs: [{ name: analysis_result, from: states.a.Output }]\nstates:\n  initial: a\n  a: { type: step, command: 'echo analysed {{.inputs.file_path}}' }\n",
    "child.yaml",
  );
  const dir = mkdtempSync(path.join(tmpdir(), "full-"));
  mkdirSync(path.join(dir, "app"));
  const inner = localRunner();
  const runner: ProcessRunner = (req) => inner({ ...req, cwd: path.resolve(dir, req.cwd ?? ".") });
  const rec = memoryEventSink();
  const outcome = await runWorkflow(workflow, {
    runProcess: runner,
    signal: new AbortController().signal,
    scrubber: new Scrubber(),
    inputs: { target: "app" },
    events: rec.sink,
    files: memoryFiles({
      "scripts/lint.sh": "#!/bin/sh\necho linted {{.inputs.target}}\n",
      "notes.md": "NOTES",
    }),
    resolver: { resolve: async (name) => (name === "child" ? child : undefined) },
    variables: {
      resolve: async () => ({
        values: { HOME_DIR: "/home/x", API_TOKEN: "tok-abcdef" },
        secrets: ["tok-abcdef"],
      }),
    },
    agents: {
      execute: async () => ({
        output: '```json\n{"severity": "low", "ok": true}\n```',
        tokensUsed: 7,
      }),
    },
  });
  expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
  const r = outcome.checkpoint.results;
  expect(r.prepare?.output).toBe("app /home/x");
  expect(r.lint?.output).toBe("linted app");
  expect(r.test?.output).toBe("a-b low true 7");
  expect(r.per_file?.output).toBe("b.go 1 2 false true 2");
  expect(r.check?.output).toBe("ready");
  expect(r.report?.output).toBe("analysed app NOTES");
  expect(outcome.outputs).toEqual({ summary: "analysed app NOTES" });
  expect(
    rec.events.filter((e) => e.type === "log").map((e) => (e.type === "log" ? e.message : "")),
  ).toEqual([`starting full ${outcome.checkpoint.runId}`, "before"]);
});

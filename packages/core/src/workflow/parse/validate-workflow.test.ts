/**
 * Validation through ports: bundle files, sub-workflow resolution and cycles, and the
 * connector catalog with lanes.
 */
import { describe, expect, it } from "vitest";
import type { WorkflowResolver } from "../model/engine-ports";
import { parseOk, memoryFiles } from "@switchyard/testing/workflow";
import { validateWorkflow, type ConnectorCatalog } from "./validate-workflow";

const codes = async (source: string, ports: Parameters<typeof validateWorkflow>[2]) =>
  (await validateWorkflow(source, "w.yaml", ports)).errors.map((e) => e.code);

describe("hosted validation", () => {
  it("requires every referenced bundle file", async () => {
    const source = `
name: files
states:
  initial: a
  a: { type: step, script_file: scripts/run.sh, on_success: b }
  b: { type: agent, provider: claude, prompt_file: prompts/p.md, on_success: done }
  done: { type: terminal }
`;
    expect(await codes(source, { files: memoryFiles({ "scripts/run.sh": "echo" }) })).toEqual([
      "USER.INPUT.MISSING_FILE",
    ]);
    expect(
      await codes(source, {
        files: memoryFiles({ "scripts/run.sh": "echo", "prompts/p.md": "hi" }),
      }),
    ).toEqual([]);
  });

  it("requires every file a literal readFile names, in the workflow and in its scripts and prompts", async () => {
    const source = `
name: reads
inputs: [{ name: x }]
states:
  initial: a
  a: { type: step, command: 'echo {{readFile "notes/a.txt"}} {{readFile .inputs.x}}', on_success: b }
  b: { type: step, script_file: run.sh, on_success: c }
  c: { type: agent, provider: claude, prompt_file: p.md, on_success: done }
  done: { type: terminal }
`;
    const scripts = {
      "run.sh": 'echo {{readFile "b.txt"}}\n',
      "p.md": 'Read {{readFile "c.txt"}}',
    };
    const result = await validateWorkflow(source, "w.yaml", { files: memoryFiles(scripts) });
    expect(result.errors.map((e) => [e.code, e.message])).toEqual([
      ["USER.INPUT.MISSING_FILE", 'states.a.command: "notes/a.txt" is not in the workflow bundle'],
      [
        "USER.INPUT.MISSING_FILE",
        'states.b.script_file: "b.txt" (read by run.sh) is not in the workflow bundle',
      ],
      [
        "USER.INPUT.MISSING_FILE",
        'states.c.prompt_file: "c.txt" (read by p.md) is not in the workflow bundle',
      ],
    ]);
    expect(result.errors[0]?.location).toMatchObject({ file: "w.yaml", line: 6 });
    expect(
      await codes(source, {
        files: memoryFiles({ ...scripts, "notes/a.txt": "a", "b.txt": "b", "c.txt": "c" }),
      }),
    ).toEqual([]);
  });

  it("checks a script_file's text for values a second shell would parse", async () => {
    const source = `
name: scripts
inputs: [{ name: msg }]
states:
  initial: a
  a: { type: step, script_file: run.sh, on_success: b }
  b: { type: step, script_file: tool.py, on_success: done }
  done: { type: terminal }
`;
    const result = await validateWorkflow(source, "w.yaml", {
      files: memoryFiles({
        "run.sh": "#!/bin/bash\necho {{.inputs.msg}}\nsh -c 'echo {{.inputs.msg}}'\n",
        "tool.py": "#!/usr/bin/env python3\nprint('{{.inputs.msg}}')\n",
      }),
    });
    expect(result.errors.map((e) => [e.code, e.message.split(":").slice(0, 2).join(":")])).toEqual([
      ["USER.TEMPLATE.NESTED_SHELL", "states.a.script_file: run.sh line 3, column 13"],
      ["USER.TEMPLATE.NESTED_SHELL", "states.b.script_file: tool.py line 2, column 8"],
    ]);
    expect(
      await codes(source, {
        files: memoryFiles({
          "run.sh": `sh -c 'echo "$SY_INPUTS_MSG"' && echo {{.inputs.msg}}\n`,
          "tool.py": "#!/usr/bin/env python3\nimport os\nprint(os.environ['SY_INPUTS_MSG'])\n",
        }),
      }),
    ).toEqual([]);
  });

  it("finds call_workflow cycles through the resolver and checks the inputs a child declares", async () => {
    const b = parseOk(
      "name: b\ninputs: [{ name: need, required: true }]\nstates:\n  initial: c\n  c: { type: call_workflow, workflow: a, inputs: { need: x } }\n",
      "b.yaml",
    );
    const resolver: WorkflowResolver = { resolve: async (name) => (name === "b" ? b : undefined) };
    const source =
      "name: a\nstates:\n  initial: c\n  c: { type: call_workflow, workflow: b, inputs: { nede: x }, on_success: d }\n  d: { type: call_workflow, workflow: zzz }\n";
    const result = await validateWorkflow(source, "a.yaml", { resolver });
    expect(result.errors.map((e) => e.code).sort()).toEqual([
      "WORKFLOW.VALIDATION.CYCLE_DETECTED",
      "WORKFLOW.VALIDATION.INVALID_REFERENCE",
      "WORKFLOW.VALIDATION.MISSING_FIELD",
      "WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW",
    ]);
    expect(
      result.errors.find((e) => e.code === "WORKFLOW.VALIDATION.CYCLE_DETECTED")?.message,
    ).toContain("a -> b -> a");
    expect(
      result.errors.find((e) => e.code === "WORKFLOW.VALIDATION.INVALID_REFERENCE")?.message,
    ).toContain('did you mean "need"');
  });

  it("checks connector ids against the catalog port in the workflow's lane", async () => {
    const catalog: ConnectorCatalog = {
      check: async (ids, lane) =>
        Object.fromEntries(
          ids.map((id) => [
            id,
            id === "github"
              ? "ok"
              : id === "admin_db" && lane !== "operator"
                ? "denied"
                : "unknown",
          ]),
        ),
    };
    const source = `
name: conn
lane: default
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy: { enable: true, connectors: [github, admin_db, nope] }
`;
    expect(await codes(source, { catalog })).toEqual([
      "USER.MCP_PROXY.LANE_DENIED",
      "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
    ]);
  });
});

describe("the lane's approval rules", () => {
  const source = (intercept: boolean) => `
name: guarded
lane: review
states:
  initial: fix
  fix:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy:
      intercept_builtins: ${intercept}
      connectors: [github]
    on_success: done
  done: { type: terminal }
`;
  const catalog: ConnectorCatalog = {
    check: (ids) => Promise.resolve(Object.fromEntries(ids.map((id) => [id, "ok" as const]))),
  };
  const asked: string[] = [];
  const approvals = {
    laneRules: (lane: string) => {
      asked.push(lane);
      return Promise.resolve([{ tool: "github_merge_*" }, { tool: "Write", outside: "docs" }]);
    },
  };

  it("refuses a step that leaves built-ins to the CLI where its lane holds calls of a built-in, at intercept_builtins", async () => {
    const result = await validateWorkflow(source(false), "w.yaml", { catalog, approvals });
    expect(asked).toEqual(["review"]);
    expect(result.workflow).toBeUndefined();
    expect(
      result.errors.map((e) => [e.code, e.location?.file, e.location?.line, e.location?.path]),
    ).toEqual([
      [
        "USER.APPROVAL.BUILTINS_NOT_INTERCEPTED",
        "w.yaml",
        11,
        "states.fix.mcp_proxy.intercept_builtins",
      ],
    ]);
    expect(result.errors[0]?.message).toContain('lane\'s approval rule 2 ("Write outside docs")');
  });

  it("accepts the same step where the proxy serves the built-ins", async () => {
    expect(await codes(source(true), { catalog, approvals })).toEqual([]);
  });
});

/**
 * AWF's skills and plugin_tools under the real worker, one openai_compatible agent step
 * against the scripted model each. Skills: a workflow saved with a skill by name (in the
 * bundle's `.awf/skills`) and one by path sends the model AWF's `<skill_content>` blocks
 * before the prompt, and saving checks them (a missing skill is an error at its line, an
 * empty one a warning). plugin_tools: a team connector exposed with one tool offers the agent
 * that tool alone, named `<connector>_<tool>`, and its call is a ToolCall row; a plugin that
 * is no connector is refused at save, an operation the connector lacks when the step starts,
 * and at save too once a worker has connected to the connector and its tool list is known.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls } from "@switchyard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiAgentState } from "./helpers/agent-workflow";
import { connectorPackages } from "./helpers/connector-packages";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const MODEL_KEY = "sk-model-key-7a1e4c9d2b8f3056";
const TOKEN = "fx-team-token-2c8e5a1f7d3b9046";

let stack: RunStack;
let model: ScriptedModel;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const admin = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

const workflow = (name: string, prompt: string, extra: string) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, prompt, "done").replace("    timeout: 2m\n", `    timeout: 2m\n${extra}`)}  done:
    type: terminal
    status: success
`;

const ended = (id: string) => runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
const why = (run: Awaited<ReturnType<typeof ended>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
    model.failures,
  ]);
const bodyWith = (marker: string) =>
  model.requests.find((r) => JSON.stringify(r.body).includes(marker))?.body as
    | { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }
    | undefined;
const saveError = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const app = (error as { cause?: { code?: string; details?: unknown } } | undefined)?.cause;
  return app as {
    code?: string;
    details?: { diagnostics: { code: string; line?: number; message?: string }[] };
  };
};

beforeAll(async () => {
  buildSwitchyardCli();
  const packages = connectorPackages();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        { match: { messagesContain: "SKILLS-RUN" }, text: "reviewed with skills" },
        {
          match: { messagesContain: "PLUGIN-RUN" },
          times: 1,
          toolCalls: [{ name: "files_echo", arguments: { text: "through the plugin" } }],
        },
        { match: { messagesContain: "PLUGIN-RUN" }, times: 1, text: "echoed" },
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_CONNECTORS_DIR: packages.dir,
    SWITCHYARD_CONNECTOR_IDLE_MS: "60000",
  });
  await admin().variables.set({
    name: "MODEL_KEY",
    value: MODEL_KEY,
    secret: true,
    lanes: ["default"],
  });
  await admin().connectors.create({
    definition: {
      id: "files",
      name: "Files",
      transport: "stdio",
      ...packages.fixture,
      credential_env: "FIXTURE_TOKEN",
      lanes: ["*"],
    },
  });
  await admin().connectors.setCredential({ id: "files", scope: "team", value: TOKEN });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

const SKILLS = `    skills:
      - go-conventions
      - path: ./custom-skills/security-audit
`;
const skillFiles = {
  ".awf/skills/go-conventions/SKILL.md":
    "---\nname: go-conventions\ndescription: Go conventions\n---\n\nUse gofmt.\n",
  "custom-skills/security-audit/SKILL.md": "Look for {{.inputs.secret}} leaks.\n",
  "custom-skills/security-audit/scripts/scan.sh": "echo scan\n",
};

describe("skills", () => {
  it("sends the model each skill before the prompt, as AWF lays them out", async () => {
    const { workflowId } = await admin().workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": workflow("skilled", "SKILLS-RUN", SKILLS), ...skillFiles },
    });
    const run = await ended((await admin().runs.start({ workflowId })).id);
    expect(run.status, why(run)).toBe("succeeded");
    const user = bodyWith("SKILLS-RUN")?.messages.find((m) => m.role === "user");
    expect(user?.content).toBe(
      [
        '<skill_content name="go-conventions">',
        "Use gofmt.",
        "",
        "Skill directory: .awf/skills/go-conventions",
        "Relative paths in this skill are relative to the skill directory.",
        "</skill_content>",
        "",
        '<skill_content name="security-audit">',
        "Look for {{.inputs.secret}} leaks.",
        "",
        "Skill directory: custom-skills/security-audit",
        "Relative paths in this skill are relative to the skill directory.",
        "",
        "<skill_resources>",
        "  <file>scripts/scan.sh</file>",
        "</skill_resources>",
        "</skill_content>",
        "",
        "SKILLS-RUN",
      ].join("\n"),
    );
  }, 180_000);

  it("refuses a missing skill at its line when saved, and warns of an empty one", async () => {
    const source = workflow("unskilled", "SKILLS-RUN", SKILLS);
    const refused = await saveError(
      admin().workflows.save({ entry: "workflow.yaml", files: { "workflow.yaml": source } }),
    );
    expect(refused.code).toBe("WORKFLOW.VALIDATION_FAILED");
    expect(refused.details?.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["USER.SKILL.NOT_FOUND", 14],
      ["USER.SKILL.NOT_FOUND", 15],
    ]);
    const checked = await admin().workflows.validate({
      entry: "workflow.yaml",
      files: {
        "workflow.yaml": source,
        ...skillFiles,
        ".awf/skills/go-conventions/SKILL.md": "---\nname: go-conventions\n---\n",
      },
    });
    expect(checked.errors).toEqual([]);
    expect(checked.warnings.map((w) => [w.code, w.line])).toEqual([
      ["USER.SKILL.EMPTY_CONTENT", 14],
    ]);
  });
});

describe("plugin_tools", () => {
  const proxy = (plugin: string, expose: string) =>
    `    mcp_proxy:\n      plugin_tools:\n        - plugin: ${plugin}\n          expose: [${expose}]\n`;

  it("offers only the exposed tool of the connector and records its call", async () => {
    const { workflowId } = await admin().workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": workflow("plugin", "PLUGIN-RUN", proxy("files", "echo")) },
    });
    const run = await ended((await admin().runs.start({ workflowId })).id);
    expect(run.status, why(run)).toBe("succeeded");
    const offered = (bodyWith("PLUGIN-RUN")?.tools ?? []).map((t) => t.function.name);
    expect(offered).toContain("files_echo");
    expect(offered).toContain("Read");
    expect(offered.filter((n) => n.startsWith("files_"))).toEqual(["files_echo"]);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
    expect(calls.map((c) => [c.toolName, c.source, c.isError])).toEqual([
      ["files_echo", "files", false],
    ]);
    expect(JSON.stringify(calls[0]!.result)).toContain("through the plugin");
  }, 180_000);

  it("refuses a plugin that is no team connector at save, an unknown operation at start", async () => {
    // As if no worker had connected to it yet: its tools are not known at save.
    await stack.db.connector.updateMany({
      where: { teamId: stack.teamId, slug: "files" },
      data: { knownTools: [], knownToolsAt: null },
    });
    const saving = (name: string, plugin: string, expose: string) =>
      admin().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": workflow(name, "PLUGIN-RUN", proxy(plugin, expose)) },
      });
    const refused = await saveError(saving("k8s", "kubernetes", "get"));
    expect(refused.details?.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["USER.MCP_PROXY.UNKNOWN_PLUGIN", 15],
    ]);
    const { workflowId } = await saving("no-op", "files", "nope");
    const run = await ended((await admin().runs.start({ workflowId })).id);
    expect(run.status).toBe("failed");
    const agent = run.steps.find((s) => s.stateName === "agent");
    expect([agent?.errorCode, agent?.errorMessage]).toEqual([
      "USER.MCP_PROXY.UNKNOWN_OPERATION",
      expect.stringContaining("operation 'nope' not found in plugin 'files'"),
    ]);

    // That start listed the connector's tools: saving now refuses the operation at its line.
    const unknownOperation = await saveError(saving("no-op", "files", "nope"));
    expect(unknownOperation.details?.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["USER.MCP_PROXY.UNKNOWN_OPERATION", 16],
    ]);
    expect(unknownOperation.details?.diagnostics[0]?.message).toMatch(
      /operation 'nope' not found in plugin 'files' \(its tools when last connected to: .*echo/,
    );
  }, 180_000);
});

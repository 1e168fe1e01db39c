/**
 * Single faults inside one run under the real worker, each in its own branch of a
 * best_effort parallel state next to a healthy shell step: a model endpoint that answers 500
 * twice and then never answers, a connector whose tool hangs, and one whose server crashes
 * mid-call. Each faulty step ends with a clear error (the step's timeout, or a tool error the
 * model is told about and recorded), the sibling succeeds, no process of the run is left,
 * and the same worker then runs the next agent step to success.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chaosMarker, agentWorkflow, tickRules } from "./helpers/chaos-workflows";
import { connectorPackages } from "./helpers/connector-packages";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KEY = "sk-faults-model-key-6c0e2f9a71b3";
const TOKEN = "fx-faults-token-2a7d9e40c3b1f856";
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

let stack: RunStack;
let model: ScriptedModel;
const admin = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

const agentBranch = (name: string, prompt: string, connectors = "") => `  ${name}:
    type: agent
    provider: openai_compatible
    prompt: ${prompt}
    options:
      base_url: ${model.url}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
    timeout: 12s
${connectors ? `    mcp_proxy:\n      connectors: [${connectors}]\n` : ""}`;

const FAULTS = () => `name: step-faults
states:
  initial: fan
  fan:
    type: parallel
    parallel: [model_down, connector_hangs, connector_crashes, sibling]
    strategy: best_effort
    on_success: done
${agentBranch("model_down", "MODEL-DOWN")}${agentBranch("connector_hangs", "CONNECTOR-HANGS", "slow")}${agentBranch("connector_crashes", "CONNECTOR-CRASHES", "files")}  sibling:
    type: step
    command: "sleep 2; echo sibling done"
  done: { type: terminal }
`;

beforeAll(async () => {
  buildSwitchyardCli();
  const packages = connectorPackages();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        // 500 twice (the step retries with backoff), then no answer at all.
        {
          match: { messagesContain: "MODEL-DOWN" },
          times: 2,
          error: { status: 500, message: "upstream exploded" },
        },
        { match: { messagesContain: "MODEL-DOWN" }, delayMs: 120_000, text: "too late" },
        {
          match: { messagesContain: "CONNECTOR-HANGS" },
          times: 1,
          toolCalls: [{ name: "slow_sleep", arguments: { ms: 120_000 } }],
        },
        { match: { messagesContain: "CONNECTOR-HANGS" }, text: "never reached" },
        {
          match: { messagesContain: "CONNECTOR-CRASHES" },
          times: 1,
          toolCalls: [{ name: "files_crash", arguments: {} }],
        },
        {
          match: { messagesContain: "CONNECTOR-CRASHES" },
          text: "the connector crashed; carrying on",
        },
        ...tickRules(1),
      ],
    },
  });
  stack = await openRunStack({
    // The scripted model and test servers listen on loopback, which the allow-list names.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_CONNECTORS_DIR: packages.dir,
  });
  await admin().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
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
  // A server of its own: the pool shares one process per connector, so a crash of "files" would cut its call too.
  await admin().connectors.create({
    definition: {
      id: "slow",
      name: "Slow",
      transport: "stdio",
      ...packages.fixture,
      credential_env: "FIXTURE_TOKEN",
      lanes: ["*"],
    },
  });
  await admin().connectors.setCredential({ id: "slow", scope: "team", value: TOKEN });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

it("fails each faulty step with a clear error while its sibling and the worker carry on", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "step-faults",
    files: { "workflow.yaml": FAULTS() },
  });
  const { id } = await admin().runs.start({ workflowId });
  const run = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
  const steps = Object.fromEntries(run.steps.map((s) => [s.stateName, s]));
  const why = JSON.stringify(
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
  );

  expect(steps.sibling?.status, why).toBe("succeeded");
  expect(steps.sibling?.stdout.trim()).toBe("sibling done");
  // The model answered 500 twice and then nothing: the step's timeout ends it.
  expect([steps.model_down?.status, steps.model_down?.errorCode], why).toEqual([
    "failed",
    "EXECUTION.TIMEOUT",
  ]);
  expect(model.requests.filter((r) => JSON.stringify(r.body).includes("MODEL-DOWN")).length).toBe(
    3,
  );
  // The engine's timer and the model loop's own deadline are both 12 s: either may say it first.
  expect(steps.model_down?.errorMessage).toMatch(
    /^(timed out after 12000 ms|EXECUTION\.TIMEOUT: the step did not finish within 12 s)$/,
  );
  // A connector call that never returns: the step's timeout too, with the call on record.
  expect([steps.connector_hangs?.status, steps.connector_hangs?.errorCode], why).toEqual([
    "failed",
    "EXECUTION.TIMEOUT",
  ]);
  const hung = await listStepToolCalls(stack.db, stack.teamId, steps.connector_hangs!.id);
  expect(hung.map((c) => [c.toolName, c.source, c.isError])).toEqual([
    ["slow_sleep", "slow", true],
  ]);
  // A connector that dies mid-call: a tool error the model is told about, on record; the step goes on.
  expect(steps.connector_crashes?.status, why).toBe("succeeded");
  const crashed = await listStepToolCalls(stack.db, stack.teamId, steps.connector_crashes!.id);
  expect(crashed.map((c) => [c.toolName, c.source, c.isError])).toEqual([
    ["files_crash", "files", true],
  ]);
  expect(processesOfRun(id)).toEqual([]);

  // The worker carries on: the next agent run succeeds, its tool call recorded.
  const next = (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "after-faults",
      files: { "workflow.yaml": agentWorkflow("after-faults", model.url) },
    })
  ).workflowId;
  const after = await admin().runs.start({ workflowId: next, inputs: { tag: "after" } });
  const ok = await runEnded(() => admin().runs.get({ id: after.id }), `run ${after.id}`, 120_000);
  expect(
    ok.status,
    JSON.stringify(ok.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  expect(model.requests.some((r) => JSON.stringify(r.body).includes(chaosMarker("after")))).toBe(
    true,
  );
}, 240_000);

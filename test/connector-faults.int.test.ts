/**
 * Connectors that misbehave on the wire, under the real worker with agent steps: one that
 * writes lines that are not JSON-RPC between its answers, one that answers a call with bytes
 * that are not JSON and then a response that is not a tool result, and one that answers with
 * 10 MB. (A connector that hangs or crashes mid-call is in step-faults.int.test.ts.) Each
 * call ends as the model can use it — an answer, or a tool error with a code and a message —
 * and is recorded; the 10 MB result is capped in what the model gets, what is stored and what
 * is streamed; the worker stays up and runs the next agent run; once it stops, no process of
 * its sandboxes or connectors is left.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { listRunEventsAfter, listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterAll, beforeAll, expect, it } from "vitest";
import { leftoverProcesses } from "./helpers/chaos-checks";
import { agentWorkflow, chaosMarker, tickRules } from "./helpers/chaos-workflows";
import { connectorPackages } from "./helpers/connector-packages";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, REPO_ROOT } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KEY = "sk-connector-faults-key-41b7e0c2";
const WORKER_ID = `faults-${Math.random().toString(36).slice(2, 8)}`;
const UID_BASE = 100_000 + Math.floor(Math.random() * 50_000) * 16;
/** The steps' 4 uids and the connectors' 8 (startWorker's WORKER_CONCURRENCY and SWITCHYARD_CONNECTORS_MAX). */
const UIDS = [{ base: UID_BASE, count: 12 }];
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

let stack: RunStack;
let model: ScriptedModel;
const admin = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

/** The faulty server, copied into the connectors folder under a name of its content. */
const faultyServer = (dir: string) => {
  const source = path.join(REPO_ROOT, "test/fixtures/faulty-mcp-server.mjs");
  const name = `faulty-${createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 12)}.mjs`;
  if (!existsSync(path.join(dir, name))) copyFileSync(source, path.join(dir, name));
  return { command: "node", args: [`/opt/connectors/${name}`] };
};

const agent = (name: string, marker: string, connector: string, next: string) => `  ${name}:
    type: agent
    provider: openai_compatible
    prompt: ${marker}
    options:
      base_url: ${model.url}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
    timeout: 90s
    mcp_proxy:
      connectors: [${connector}]
    on_success: ${next}
`;

const FAULTS = () => `name: connector-faults
states:
  initial: noisy
${agent("noisy", "NOISE-STEP", "noisy", "junk")}${agent("junk", "JUNK-STEP", "junk", "big")}${agent("big", "HUGE-STEP", "big", "large")}${agent("large", "LARGE-STEP", "large", "done")}  done: { type: terminal }
`;

beforeAll(async () => {
  buildSwitchyardCli();
  const packages = connectorPackages();
  const faulty = faultyServer(packages.dir);
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "NOISE-STEP" },
          times: 1,
          toolCalls: [
            { name: "noisy_noise", arguments: {} },
            { name: "noisy_ping", arguments: {} },
          ],
        },
        { match: { messagesContain: "NOISE-STEP" }, text: "noise survived" },
        {
          match: { messagesContain: "JUNK-STEP" },
          times: 1,
          toolCalls: [{ name: "junk_garbage", arguments: {} }],
        },
        {
          match: { messagesContain: "JUNK-STEP" },
          text: "the connector answered garbage; carrying on",
        },
        {
          match: { messagesContain: "HUGE-STEP" },
          times: 1,
          toolCalls: [{ name: "big_huge", arguments: { mb: 10 } }],
        },
        { match: { messagesContain: "HUGE-STEP" }, text: "too big; carrying on" },
        {
          match: { messagesContain: "LARGE-STEP" },
          times: 1,
          toolCalls: [{ name: "large_huge", arguments: { mb: 3 } }],
        },
        { match: { messagesContain: "LARGE-STEP" }, text: "got the head of it" },
        ...tickRules(1),
      ],
    },
  });
  stack = await openRunStack({
    // The scripted model and test servers listen on loopback, which the allow-list names.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_CONNECTORS_DIR: packages.dir,
    SWITCHYARD_WORKER_ID: WORKER_ID,
    SWITCHYARD_STEP_UID_BASE: String(UID_BASE),
  });
  await admin().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  // One connector (so one server process) a fault: a fault of one cannot cut another's call.
  for (const [id, name] of [
    ["noisy", "Noisy"],
    ["junk", "Junk"],
    ["big", "Big"],
    ["large", "Large"],
  ])
    await admin().connectors.create({
      definition: { id, name, transport: "stdio", ...faulty, lanes: ["*"] },
    });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

it("noise, garbage and a 10 MB answer from a connector end as the model can use them; the worker carries on and leaves nothing behind", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "connector-faults",
    files: { "workflow.yaml": FAULTS() },
  });
  const { id } = await admin().runs.start({ workflowId });
  const run = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 240_000);
  const why = JSON.stringify(
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
  );
  expect(run.status, why).toBe("succeeded");
  const steps = Object.fromEntries(run.steps.map((s) => [s.stateName, s]));
  const calls = async (state: string) =>
    listStepToolCalls(stack.db, stack.teamId, steps[state]!.id);
  const text = (result: unknown) => JSON.stringify(result);

  // Lines that are not JSON-RPC between answers are skipped: both calls are answered.
  const noisy = await calls("noisy");
  expect(noisy.map((c) => [c.toolName, c.source, c.isError])).toEqual([
    ["noisy_noise", "noisy", false],
    ["noisy_ping", "noisy", false],
  ]);
  expect(text(noisy[0]!.result)).toContain("answered after the noise");
  expect(text(noisy[1]!.result)).toContain("pong");

  // An answer that is not a tool result: a tool error with a code and a message, the step goes on.
  const junk = await calls("junk");
  expect(junk.map((c) => [c.toolName, c.source, c.isError])).toEqual([
    ["junk_garbage", "junk", true],
  ]);
  const junkText = text(junk[0]!.result);
  expect(junk[0]!.errorType).toBe("EXECUTION.CONNECTOR_UNAVAILABLE");
  expect(junkText).toContain("Invalid result for tools/call");
  const toModel = model.requests.filter((r) => text(r.body).includes("JUNK-STEP")).at(-1)!;
  expect(text(toModel.body)).toMatch(/EXECUTION\.CONNECTOR_[A-Z_]+/);

  // 10 MB in one message is over what the worker reads of a connector (the MCP SDK's 10 MiB a
  // message): the connection is dropped, the call is a tool error, nothing of it is stored.
  const big = await calls("big");
  expect(big.map((c) => [c.toolName, c.source, c.isError, c.errorType])).toEqual([
    ["big_huge", "big", true, "EXECUTION.CONNECTOR_UNAVAILABLE"],
  ]);
  expect(text(big[0]!.result)).toContain("Connection closed");
  expect(text(big[0]!.result)).not.toContain("xxxxxxxx");

  // 3 MB: what the model got, what is stored, what the API answers and what was streamed are capped.
  const large = await calls("large");
  expect(large.map((c) => [c.toolName, c.source, c.isError])).toEqual([
    ["large_huge", "large", false],
  ]);
  const stored = text(large[0]!.result);
  expect(stored).toContain("HUGE-HEAD");
  expect(stored).not.toContain("HUGE-TAIL");
  expect(stored.length).toBeLessThan(256 * 1024);
  const toModelLarge = model.requests.filter((r) => text(r.body).includes("LARGE-STEP"));
  for (const r of toModelLarge) expect(text(r.body).length).toBeLessThan(256 * 1024);
  expect(text(toModelLarge.at(-1)!.body)).toContain("HUGE-HEAD");
  const events = await listRunEventsAfter(stack.db, stack.teamId, id, 0, 10_000);
  const streamed = text(events);
  expect(streamed).not.toContain("HUGE-TAIL");
  expect(streamed.length).toBeLessThan(1024 * 1024);
  const page = text(await admin().runs.toolCalls({ id, stepRunId: steps.large!.id, limit: 100 }));
  expect(page).not.toContain("HUGE-TAIL");
  expect(page.length).toBeLessThan(256 * 1024);
  expect(processesOfRun(id)).toEqual([]);

  // The worker is up and runs the next agent run.
  expect(stack.worker.child.exitCode).toBeNull();
  const next = (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "after-connector-faults",
      files: { "workflow.yaml": agentWorkflow("after-connector-faults", model.url) },
    })
  ).workflowId;
  const after = await admin().runs.start({ workflowId: next, inputs: { tag: "after" } });
  const ok = await runEnded(() => admin().runs.get({ id: after.id }), `run ${after.id}`, 120_000);
  expect(
    ok.status,
    JSON.stringify(ok.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  expect(model.requests.some((r) => text(r.body).includes(chaosMarker("after")))).toBe(true);

  // Stopped, the worker leaves no process of its steps or connectors.
  await stack.worker.stop();
  await new Promise((r) => setTimeout(r, 1000));
  expect(leftoverProcesses([WORKER_ID], UIDS)).toEqual([]);
}, 420_000);

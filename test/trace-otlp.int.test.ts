/**
 * One trace from a trigger to a connector's HTTP call, in the OpenTelemetry GenAI and MCP
 * semantic conventions, as a real OTLP/HTTP receiver gets it: a schedule fires in a real
 * worker, the run's openai_compatible agent step (against the scripted model) Writes a file
 * with a built-in and calls a team http connector's tool, and the receiver holds the tree
 * trigger → invoke_workflow → step → invoke_agent → chat / execute_tool → the proxy's
 * tools/call → the connector's HTTP client span, whose traceparent the connector got. A
 * Claude Code step's model requests, metered by the gateway, are chat spans of its attempt;
 * a run started through the web API continues the trace of the request's span.
 */
import { context, SpanKind, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { Queue } from "bullmq";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { TRIGGER_QUEUE, type TriggerJob } from "@switchyard/core/triggers";
import { saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { startOtlpReceiver, type ReceivedSpan } from "./helpers/otlp-receiver";
import {
  startRecordingMcpServer,
  TEST_SERVERS_HOST,
  type RecordingMcpServer,
} from "./helpers/recording-mcp-server";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, startWorker, waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-5c0e8d2f71a94b";
const SERVER = 2; // OTLP SpanKind
const CLIENT = 3;

let stack: RunStack;
let model: ScriptedModel;
let crm: RecordingMcpServer;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let triggerQueue: Queue<TriggerJob>;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const caller = () => dashboardCaller({ ...stack, keyring, egress }, stack.adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  crm = await startRecordingMcpServer();
  model = await startScriptedModel({
    host: TEST_SERVERS_HOST,
    script: {
      turns: [
        {
          expect: { toolOffered: ["Write", "crm_fingerprint"] },
          toolCalls: [{ name: "Write", arguments: { path: "notes.txt", content: "traced\n" } }],
        },
        {
          expect: { lastToolResultContains: "notes.txt" },
          toolCalls: [{ name: "crm_fingerprint", arguments: {} }],
        },
        { expect: { lastToolResultContains: "fingerprint=" }, text: "done" },
      ],
    },
  });
  receiver = await startOtlpReceiver();
  stack = await openRunStack(workerEnv());
  triggerQueue = new Queue<TriggerJob>(TRIGGER_QUEUE, {
    connection: stack.redis,
    prefix: stack.prefix,
  });
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  await caller().connectors.create({
    definition: {
      id: "crm",
      name: "CRM",
      transport: "http",
      url: crm.url,
      auth: "none",
      lanes: ["*"],
    },
  });
}, 300_000);
afterAll(async () => {
  await triggerQueue?.close();
  if (stack) await closeRunStack(stack);
  await model?.close();
  await crm?.close();
  await receiver?.close();
});

const workerEnv = () => ({
  SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
  SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  SWITCHYARD_MODEL_PRICES: JSON.stringify({ "scripted-1": { input: 1, output: 2 } }),
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
});

/** Saves a workflow of the team from its YAML; answers its id. */
const saved = async (name: string, yaml: string) =>
  (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name,
      files: { "workflow.yaml": yaml },
    })
  ).workflowId;

/** The first test stops the stack's worker to flush its spans: the others start their own. */
const ownWorker = () =>
  startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    ...workerEnv(),
  });

const WORKFLOW = (url: string) => `name: trace-tree
states:
  initial: agent
${openAiAgentState(url, "Write notes.txt, then ask the CRM.", "done").replace(
  "    timeout: 2m\n",
  "    timeout: 2m\n    mcp_proxy:\n      connectors: [crm]\n",
)}  done:
    type: terminal
    status: success
`;

it("exports one trace from the trigger's fire to the connector's HTTP call, named as the conventions say", async () => {
  const workflowId = await saved("trace-tree", WORKFLOW(model.url));
  const { trigger } = await caller().triggers.create({
    workflowId,
    kind: "schedule",
    cron: "0 0 1 1 *",
    timezone: "UTC",
  });
  // The fire its scheduler would make, now.
  await triggerQueue.add("fire", { triggerId: trigger.id, teamId: stack.teamId });
  const runId = await waitFor(
    async () =>
      (await stack.db.run.findFirst({ where: { teamId: stack.teamId, triggerId: trigger.id } }))
        ?.id,
    30_000,
    "the trigger's run",
  );
  const run = await runEnded(() => caller().runs.get({ id: runId }), `run ${runId}`, 120_000);
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  expect(model.failures).toEqual([]);
  await stack.worker.stop(); // flushes the batch processor

  const named = (name: string) => receiver.spans.filter((s) => s.name === name);
  const one = (name: string) => {
    const found = named(name);
    expect(
      found.map((s) => s.name),
      receiver.spans.map((s) => s.name).join(", "),
    ).toEqual([name]);
    return found[0]!;
  };
  const fire = receiver.spans.find(
    (s) => s.name === "trigger schedule" && s.attributes["switchyard.trigger.id"] === trigger.id,
  )!;
  expect(fire, receiver.spans.map((s) => s.name).join(", ")).toBeDefined();
  expect(fire.parentSpanId || undefined).toBeUndefined();
  const traced = receiver.spans.filter((s) => s.traceId === fire.traceId);
  expect(run.traceId).toBe(fire.traceId);

  // Every span of the trace hangs from another of it, up to the fire: the tree is whole.
  const ids = new Set(traced.map((s) => s.spanId));
  for (const s of traced)
    if (s !== fire) expect(ids.has(s.parentSpanId ?? ""), `${s.name}'s parent`).toBe(true);

  const childOf = (parent: ReceivedSpan, span: ReceivedSpan) => {
    expect(span.traceId).toBe(fire.traceId);
    expect(span.parentSpanId, `${span.name} under ${parent.name}`).toBe(parent.spanId);
  };
  const workflow = one("invoke_workflow trace-tree");
  childOf(fire, workflow);
  expect(workflow.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_workflow",
    "gen_ai.workflow.name": "trace-tree",
    "switchyard.run.id": runId,
  });
  const step = one("step agent");
  childOf(workflow, step);
  const agentRow = run.steps.find((s) => s.stateName === "agent")!;
  const agent = one("invoke_agent agent");
  childOf(step, agent);
  expect(agent.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "agent",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "scripted-1",
    "gen_ai.conversation.id": agentRow.id,
  });

  const chats = named("chat scripted-1");
  expect(chats).toHaveLength(3);
  for (const chat of chats) {
    childOf(agent, chat);
    expect(chat.kind).toBe(CLIENT);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "scripted-1",
      "server.address": TEST_SERVERS_HOST,
    });
    expect(Number(chat.attributes["gen_ai.usage.input_tokens"])).toBeGreaterThan(0);
    expect(Number(chat.attributes["gen_ai.usage.output_tokens"])).toBeGreaterThan(0);
    expect(Number(chat.attributes["switchyard.cost.usd"])).toBeGreaterThan(0);
  }

  for (const tool of ["Write", "crm_fingerprint"]) {
    const execute = one(`execute_tool ${tool}`);
    childOf(agent, execute);
    expect(execute.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "mcp.method.name": "tools/call",
    });
    expect(execute.attributes["gen_ai.tool.call.id"]).toBeTruthy();
    // The proxy's server span continues the traceparent the loop sent in the call's _meta.
    const call = one(`tools/call ${tool}`);
    childOf(execute, call);
    expect(call.kind).toBe(SERVER);
    expect(call.service).toBe("switchyard-mcp-proxy");
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "network.transport": "pipe",
    });
    expect(call.attributes["mcp.protocol.version"]).toBeTruthy();
    expect(call.attributes["jsonrpc.request.id"]).toBeTruthy();
  }

  // The connector's HTTP request: a client span under the proxy's call, its context sent along.
  const connectorCall = one("tools/call crm_fingerprint");
  const http = traced.filter((s) => s.parentSpanId === connectorCall.spanId);
  expect(http.length).toBeGreaterThanOrEqual(1);
  for (const h of http) {
    expect(h.name).toBe("POST");
    expect(h.kind).toBe(CLIENT);
    expect(h.attributes).toMatchObject({
      "http.request.method": "POST",
      "server.address": TEST_SERVERS_HOST,
      "http.response.status_code": 200,
    });
  }
  const toolRequest = crm.requests.find((r) => r.body.includes('"tools/call"'))!;
  expect(toolRequest).toBeDefined();
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(
    String(toolRequest.headers.traceparent),
  );
  expect(sent?.[1]).toBe(fire.traceId);
  expect(http.map((h) => h.spanId)).toContain(sent?.[2]);

  expect(JSON.stringify(receiver.spans)).not.toContain(KEY);
}, 240_000);

const claude = CLI_ROWS.find((row) => row.agent === "claude")!;
const claudeInstalled = installedAgent("claude", (line) => console.log(`[trace claude] ${line}`));

it.runIf(claudeInstalled)(
  "puts a Claude Code step's metered model requests and its proxy's calls under its invoke_agent span",
  async () => {
    const anthropic = await startScriptedModel({
      host: TEST_SERVERS_HOST,
      script: {
        turns: [
          {
            expect: { toolOffered: [claude.tool("Write")], model: claude.model },
            toolCalls: [
              { name: claude.tool("Write"), arguments: { path: "c.txt", content: "claude\n" } },
            ],
          },
          { expect: { lastToolResultContains: "c.txt" }, text: "written" },
        ],
      },
    });
    const worker = await ownWorker();
    try {
      await caller().models.set({
        vendor: CLI_PROVIDERS.claude!.cli.vendor,
        endpoint: anthropic.url,
        apiKey: "sk-ant-team-trace-3f9c1a7e5d",
      });
      const workflowId = await saved(
        "trace-claude",
        `name: trace-claude
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: Write c.txt.
    options:
      model: ${claude.model}
    timeout: 4m
    on_success: done
  done:
    type: terminal
    status: success
`,
      );
      const { id } = await caller().runs.start({ workflowId });
      const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 300_000);
      expect(run.status, JSON.stringify(run.steps.map((s) => [s.status, s.errorMessage]))).toBe(
        "succeeded",
      );
      expect(anthropic.failures).toEqual([]);
      await worker.stop();

      const inRun = receiver.spans.filter((s) => s.traceId === run.traceId);
      const agent = inRun.find((s) => s.name === "invoke_agent agent")!;
      expect(agent.attributes).toMatchObject({
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": claude.model,
      });
      const chats = inRun.filter((s) => s.name.startsWith("chat "));
      expect(chats.length).toBeGreaterThanOrEqual(2);
      for (const chat of chats) {
        expect(chat.parentSpanId).toBe(agent.spanId);
        expect(chat.kind).toBe(CLIENT);
        expect(chat.attributes["gen_ai.provider.name"]).toBe("anthropic");
        expect(Number(chat.attributes["gen_ai.usage.output_tokens"])).toBeGreaterThan(0);
        expect(Number(chat.attributes["switchyard.cost.usd"])).toBeGreaterThan(0);
      }
      const write = inRun.find((s) => s.name === "tools/call Write")!;
      expect(write.service).toBe("switchyard-mcp-proxy");
      expect(write.parentSpanId).toBe(agent.spanId);
    } finally {
      await worker.stop();
      await anthropic.close();
    }
  },
  360_000,
);

it("continues the trace of the web request that started the run", async () => {
  // The web process's SDK, here in the test's process: runs.start runs in-process under the
  // request's span (Next.js makes it in the web app) and hands its context to the worker.
  const web = new NodeSDK({
    serviceName: "switchyard-web",
    traceExporter: new OTLPTraceExporter({ url: `${receiver.endpoint}/v1/traces` }),
  });
  web.start();
  const worker = await ownWorker();
  try {
    const workflowId = await saved(
      "trace-api",
      `name: trace-api
states:
  initial: hello
  hello:
    type: step
    command: echo hello
    on_success: done
  done:
    type: terminal
    status: success
`,
    );
    const request = trace
      .getTracer("test-web")
      .startSpan("POST /api/trpc/runs.start", { kind: SpanKind.SERVER });
    const { id } = await context.with(trace.setSpan(context.active(), request), () =>
      caller().runs.start({ workflowId }),
    );
    request.end();
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
    expect(run.status).toBe("succeeded");
    await worker.stop();
    await web.shutdown();

    const api = receiver.spans.find((s) => s.name === "POST /api/trpc/runs.start")!;
    expect(api.service).toBe("switchyard-web");
    const workflow = receiver.spans.find((s) => s.name === "invoke_workflow trace-api")!;
    expect(workflow.traceId).toBe(api.traceId);
    expect(workflow.parentSpanId).toBe(api.spanId);
    expect(run.traceId).toBe(api.traceId);
    const step = receiver.spans.find((s) => s.name === "step hello")!;
    expect(step.parentSpanId).toBe(workflow.spanId);
  } finally {
    await worker.stop();
    await web.shutdown().catch(() => undefined);
  }
}, 120_000);

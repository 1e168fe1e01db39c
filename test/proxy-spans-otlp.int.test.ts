/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, the spans an agent step's MCP proxy reports are
 * exported along with the worker's own, under the proxy's ids: a real worker runs an
 * openai_compatible agent step against the scripted model, the model Writes one file, and
 * the OTLP receiver gets the run's invoke_workflow span → step → invoke_agent → the loop's
 * execute_tool span → the proxy's `tools/call Write` span as one tree.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { startOtlpReceiver } from "./helpers/otlp-receiver";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KEY = "sk-model-key-7d21a9c4e0b86f";

let stack: RunStack;
let model: ScriptedModel;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [
        {
          expect: { toolOffered: ["Write"] },
          toolCalls: [
            {
              name: "Write",
              arguments: { path: "notes/hello.txt", content: "hello from the agent\n" },
            },
          ],
        },
        { expect: { lastToolResultContains: "hello.txt" }, text: "wrote it" },
      ],
    },
  });
  receiver = await startOtlpReceiver();
  stack = await openRunStack({
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  });
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
  await receiver?.close();
});

const WORKFLOW = (url: string) => `name: agent-spans
states:
  initial: agent
${openAiAgentState(url, "Write notes/hello.txt.", "done")}  done:
    type: terminal
    status: success
`;

it("exports the proxy's tool call span under the agent span of the run's trace", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "agent-spans",
    files: { "workflow.yaml": WORKFLOW(model.url) },
  });
  const { id } = await caller().runs.start({ workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  expect(
    run.status,
    JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
    }),
  ).toBe("succeeded");
  expect(model.failures).toEqual([]);
  const agent = run.steps.find((s) => s.stateName === "agent")!;
  const [call] = await listStepToolCalls(stack.db, stack.teamId, agent.id);
  expect(call?.toolName).toBe("Write");
  await stack.worker.stop(); // flushes the batch processor

  const runSpan = receiver.spans.find(
    (s) => s.name === "invoke_workflow agent-spans" && s.attributes["switchyard.run.id"] === id,
  );
  expect(runSpan, receiver.spans.map((s) => s.name).join(", ")).toBeDefined();
  const stepSpan = receiver.spans.find(
    (s) => s.name === "step agent" && s.traceId === runSpan!.traceId,
  );
  expect(stepSpan!.parentSpanId).toBe(runSpan!.spanId);
  const agentSpan = receiver.spans.find(
    (s) => s.name === "invoke_agent agent" && s.traceId === runSpan!.traceId,
  );
  expect(agentSpan).toBeDefined();
  expect(agentSpan!.parentSpanId).toBe(stepSpan!.spanId);
  const execute = receiver.spans.find((s) => s.name === "execute_tool Write");
  expect(execute!.parentSpanId).toBe(agentSpan!.spanId);

  const toolSpans = receiver.spans.filter((s) => s.name.startsWith("tools/call "));
  expect(toolSpans.map((s) => s.name)).toEqual(["tools/call Write"]);
  const tool = toolSpans[0]!;
  // The proxy's own ids, as the Span row and the ToolCall row keep them.
  expect(tool.traceId).toBe(runSpan!.traceId);
  expect(tool.parentSpanId).toBe(execute!.spanId);
  expect(tool.spanId).toBe(call!.spanId);
  expect(call!.traceId).toBe(runSpan!.traceId);
  const stored = await stack.db.span.findFirst({ where: { runId: id, spanId: tool.spanId } });
  expect(stored?.parentSpanId).toBe(execute!.spanId);
  expect(tool.service).toBe("switchyard-mcp-proxy");
  expect(tool.attributes["gen_ai.tool.name"]).toBe("Write");
  expect(tool.attributes["switchyard.tool.source"]).toBe("builtin");
  expect(tool.status?.code).toBe(1); // OK
  expect(JSON.stringify(receiver.spans)).not.toContain(KEY);
}, 180_000);

/**
 * A long connector call run as an MCP task under the real worker: an openai_compatible agent
 * step against the scripted model calls the `report` tool of a server on the v2 server SDK
 * that runs it as a task taking seconds. The agent gets the tool's result when the task ends
 * (the call is held meanwhile, the worker polling the task), and a worker killed while it
 * polls loses nothing: the replacement worker runs the step again and follows the open task to
 * its end at once, and when the agent asks again the call takes the same task's result.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { connectorTasksOfRun, listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { connectorLines, openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { startTaskServer } from "./helpers/task-server";
import { startWorker, waitFor } from "./helpers/worker-process";

const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const WORKER_ID = `tasks-${Math.random().toString(36).slice(2, 8)}`;
let stack: RunStack;
let model: ScriptedModel;
let server: Awaited<ReturnType<typeof startTaskServer>>;
/** The same server speaking the 2026-07-28 tasks extension, as connector "tasks26". */
let extServer: Awaited<ReturnType<typeof startTaskServer>>;
let workerEnv: Record<string, string>;

const admin = () =>
  dashboardCaller(
    {
      db: stack.db,
      keyring,
      queue: stack.queue,
      redis: stack.redis,
      prefix: stack.prefix,
      egress: webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW)),
    },
    stack.adminId,
  );

const KILLED = { ms: 6_000, topic: "killed" };

/** The model calls `report` (up to `times` times: once more after a restart), then answers. */
const rules = (marker: string, args: Record<string, unknown>, times: number, slug = "reports") => [
  {
    match: { messagesContain: marker },
    times,
    toolCalls: [{ name: `${slug}_report`, arguments: args }],
  },
  { match: { messagesContain: marker }, times: 1, text: `done ${marker}` },
];

const start = async (name: string, prompt: string, slug = "reports") => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    lane: "operator",
    files: {
      "workflow.yaml": `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, prompt, "done", connectorLines(slug))}  done:
    type: terminal
    status: success
`,
    },
  });
  return (await admin().runs.start({ workflowId })).id;
};
const ended = (id: string) => runEnded(() => admin().runs.get({ id }), `run ${id}`, 150_000);
const reportCalls = async (run: Awaited<ReturnType<typeof ended>>, slug = "reports") =>
  (
    await listStepToolCalls(
      stack.db,
      stack.teamId,
      run.steps.filter((s) => s.stateName === "agent").at(-1)!.id,
    )
  ).filter((c) => c.toolName === `${slug}_report`);

beforeAll(async () => {
  server = await startTaskServer();
  extServer = await startTaskServer({ ext: true });
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        ...rules("TASK-HELD", { ms: 3_000, topic: "held" }, 1),
        ...rules("EXT-HELD", { ms: 3_000, topic: "held" }, 1, "tasks26"),
        // Killed once; after the restart the model takes its time before it asks again.
        {
          match: { messagesContain: "TASK-KILLED" },
          times: 1,
          toolCalls: [{ name: "reports_report", arguments: KILLED }],
        },
        ...rules("TASK-KILLED", KILLED, 1).map((rule) => ({ ...rule, delayMs: 5_000 })),
      ],
    },
  });
  workerEnv = {
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_WORKER_ID: WORKER_ID,
    SWITCHYARD_JOB_LOCK_MS: "3000",
  };
  stack = await openRunStack(workerEnv);
  await admin().variables.set({
    name: "MODEL_KEY",
    value: "sk-model-key-6d1f0a9c3e7b2854",
    secret: true,
    lanes: ["operator"],
  });
  await admin().connectors.create({
    definition: server.connector,
  });
  await admin().connectors.create({
    definition: { ...extServer.connector, id: "tasks26", name: "Tasks 2026" },
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
  server?.close();
  extServer?.close();
});

it.each([
  { form: "2025-11-25 tasks form", slug: "reports", marker: "TASK-HELD", at: () => server },
  { form: "2026-07-28 tasks extension", slug: "tasks26", marker: "EXT-HELD", at: () => extServer },
])(
  "holds the agent's call while the task runs and answers it with the task's result ($form)",
  async ({ slug, marker, at }) => {
    const before = (await at().tasks()).length;
    const run = await ended(await start(`task-held-${slug}`, marker, slug));
    expect(run.status, JSON.stringify([run.errorCode, run.errorMessage, model.failures])).toBe(
      "succeeded",
    );
    const calls = await reportCalls(run, slug);
    expect(calls.map((c) => [c.source, c.isError])).toEqual([[slug, false]]);
    expect(JSON.stringify(calls[0]!.result)).toContain("report for held after 3000 ms");
    const made = (await at().tasks()).slice(before);
    expect(made.map((t) => [t.status, t.args.topic])).toEqual([["completed", "held"]]);
    const rows = await connectorTasksOfRun(stack.db, stack.teamId, run.id);
    expect(rows.map((r) => [r.taskId, r.status, r.stateName])).toEqual([
      [made[0]!.taskId, "completed", "agent"],
    ]);
  },
  200_000,
);

it("loses no task to a worker killed while it polls: the replacement follows it to its result", async () => {
  const before = (await server.tasks()).length;
  const id = await start("task-killed", "TASK-KILLED");
  await waitFor(
    async () =>
      (await connectorTasksOfRun(stack.db, stack.teamId, id)).find((r) => r.status === "working"),
    60_000,
    "the task to be running",
  );
  stack.worker.child.kill("SIGKILL");
  await new Promise((resolve) => stack.worker.child.once("exit", resolve));
  stack.worker = await startWorker(
    { DATABASE_URL: stack.database.url, SWITCHYARD_QUEUE_PREFIX: stack.prefix, ...workerEnv },
    120_000,
  );
  // The new worker follows the task to its end before the agent asks again: the row says it
  // completed while no call has taken its result yet.
  await waitFor(
    async () =>
      (await connectorTasksOfRun(stack.db, stack.teamId, id)).find(
        (r) => r.status === "completed" && r.resultTakenAt === null,
      ),
    60_000,
    "the new worker to follow the task to its end",
  );
  const run = await ended(id);
  expect(
    run.status,
    JSON.stringify([run.errorCode, run.errorMessage, model.failures, stack.worker.logs()]),
  ).toBe("succeeded");
  // One task at the server, followed to its end by the second worker.
  const made = (await server.tasks()).slice(before);
  expect(made.map((t) => [t.status, t.args.topic])).toEqual([["completed", "killed"]]);
  const rows = await connectorTasksOfRun(stack.db, stack.teamId, id);
  expect(rows.map((r) => [r.taskId, r.status])).toEqual([[made[0]!.taskId, "completed"]]);
  // The call made again took the result (fetched from the server: none is kept).
  expect(rows[0]!.resultTakenAt).not.toBeNull();
  const calls = await reportCalls(run);
  expect(JSON.stringify(calls.at(-1)!.result)).toContain("report for killed after 6000 ms");
}, 300_000);

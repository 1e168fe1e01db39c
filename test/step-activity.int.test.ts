/**
 * What an agent step did, as the run page and the REST API read it: runs.get's step
 * entries carry the agent's provider, tokens, cost and tool-call count; runs.stepActivity
 * and GET /runs/{id}/steps/{stepId}/activity list the step's tool calls by start and its
 * agent events in order, only the team's, the latest ones when there are too many.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  appendRunEvents,
  createApiToken,
  createRun,
  finishStepRun,
  insertToolCalls,
  saveWorkflowVersion,
  startStepRun,
  type Db,
  type ToolCallRow,
} from "@switchyard/db";
import { runResponse, stepActivityResponse } from "~/server/contract/runs.types";
import { handleRest } from "~/server/rest/rest-api";
import { STEP_ACTIVITY_LIMITS } from "~/server/runs/step-activity";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

let database: SeededDatabase;
let db: Db;
let adminId: string;
let teamId: string;
let token: string;
let runId: string;
let agentStepId: string;
let otherStepId: string;
let newRun: () => Promise<string>;

const rest = async (path: string, bearer = token) => {
  const res = await handleRest(
    {
      db,
      queue: () => {
        throw new Error("no queue here");
      },
      prefix: "unused",
      publish: () => Promise.resolve(0),
    },
    new Request(`http://localhost/api/v1${path}`, {
      method: "GET",
      headers: { authorization: `Bearer ${bearer}` },
    }),
    path,
  );
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { error?: { code: string } },
  };
};

const STEP_PATH = { workflow: "agentic", key: "agent", loop: [], calls: [] };
const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, second));
const call = (
  stepRunId: string,
  toolName: string,
  second: number,
  extra: Partial<ToolCallRow> = {},
): ToolCallRow => ({
  stepRunId,
  toolName,
  source: "builtin",
  fidelity: "proxy",
  arguments: { path: `${toolName}.txt` },
  result: { content: [{ type: "text", text: `${toolName} done` }] },
  isError: false,
  startedAt: at(second),
  durationMs: 40 + second,
  ...extra,
});
const agentEvent = (stepRunId: string, event: Record<string, unknown>) => ({
  type: "agent.event",
  payload: { stepRunId, state: "agent", attempt: 1, event },
});

beforeAll(async () => {
  database = await openSeededDatabase();
  ({ db, adminId, teamId } = database);
  token = (await createApiToken(db, { teamId, userId: adminId, name: "ci" })).token;

  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "agentic",
    files: {
      "workflow.yaml":
        "name: agentic\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n",
    },
  });
  newRun = async () =>
    (
      await createRun(db, {
        teamId,
        workflowId: version.workflowId,
        workflowVersionId: version.id,
        lane: "default",
        trigger: "api",
      })
    ).id;
  runId = await newRun();
  const path = STEP_PATH;
  const step = await startStepRun(db, {
    teamId,
    runId,
    stateName: "agent",
    stepType: "agent",
    attempt: 1,
    path,
    provider: "openai_compatible",
  });
  const other = await startStepRun(db, {
    teamId,
    runId,
    stateName: "agent",
    stepType: "agent",
    attempt: 2,
    path,
    provider: "openai_compatible",
  });
  agentStepId = step.id;
  otherStepId = other.id;

  // Two batches, the second with a call that started before the first batch's last one.
  await insertToolCalls(db, teamId, runId, [
    call(step.id, "Write", 1),
    call(step.id, "Read", 5, { isError: true, errorType: "tool_error" }),
  ]);
  await insertToolCalls(db, teamId, runId, [
    call(step.id, "Glob", 3, { source: "github", connectorId: "github" }),
    call(other.id, "Bash", 2),
  ]);

  let seq = 1;
  seq = await appendRunEvents(db, teamId, runId, seq, [
    { type: "state.started", payload: { state: "agent" } },
    agentEvent(step.id, { type: "session", sessionId: "s-1" }),
    agentEvent(step.id, { type: "text", text: "Let me " }),
    agentEvent(step.id, { type: "text", text: "look." }),
    agentEvent(other.id, { type: "text", text: "the other attempt" }),
    agentEvent(step.id, {
      type: "tool_use",
      id: "c1",
      name: "Write",
      arguments: { path: "Write.txt" },
    }),
    agentEvent(step.id, { type: "tool_result", id: "c1", isError: false, text: "ok" }),
    agentEvent(step.id, {
      type: "retry",
      attempt: 1,
      delayMs: 500,
      status: 429,
      message: "rate limited",
    }),
    agentEvent(step.id, { type: "usage", inputTokens: 120, outputTokens: 30, estimated: false }),
    agentEvent(step.id, { type: "cost", usd: 0.5, source: "cli_estimate" }),
    agentEvent(step.id, { type: "final", text: "All done.", turns: 2 }),
  ]);
  // The other attempt: more events than a page shows.
  const many = Array.from({ length: STEP_ACTIVITY_LIMITS.events + 20 }, (_, i) =>
    agentEvent(other.id, { type: "text", text: `chunk ${i} ` }),
  );
  seq = await appendRunEvents(db, teamId, runId, seq, many);
  await appendRunEvents(db, teamId, runId, seq, [
    agentEvent(other.id, { type: "error", code: "EXECUTION.TIMEOUT", message: "took too long" }),
  ]);

  await finishStepRun(db, teamId, step.id, {
    status: "succeeded",
    exitCode: 0,
    stdout: "",
    stderr: "",
    output: "All done.",
    inputTokens: 120,
    outputTokens: 30,
    costUsd: 0.012345,
  });
});
afterAll(() => database?.close());

it("runs.get gives an agent step's provider, tokens, cost as a number and how many tools it called", async () => {
  const run = await dashboardCaller({ db }, adminId).runs.get({ id: runId });
  const step = run.steps.find((s) => s.id === agentStepId);
  expect(step).toMatchObject({
    stepType: "agent",
    provider: "openai_compatible",
    output: "All done.",
    inputTokens: 120,
    outputTokens: 30,
    costUsd: 0.012345,
    toolCallCount: 3,
  });
  expect(run.steps.find((s) => s.id === otherStepId)).toMatchObject({
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    toolCallCount: 1,
  });

  const viaRest = await rest(`/runs/${runId}`);
  expect(viaRest.status).toBe(200);
  const parsed = runResponse.parse(viaRest.body);
  expect(parsed.steps.find((s) => s.id === agentStepId)).toMatchObject({
    provider: "openai_compatible",
    costUsd: 0.012345,
    toolCallCount: 3,
  });
});

it("runs.stepActivity lists the step's tool calls by start and its agent events in order", async () => {
  const activity = await dashboardCaller({ db }, adminId).runs.stepActivity({
    runId,
    stepRunId: agentStepId,
  });
  expect(activity.toolCalls.map((c) => [c.toolName, c.source, c.isError, c.durationMs])).toEqual([
    ["Write", "builtin", false, 41],
    ["Glob", "github", false, 43],
    ["Read", "builtin", true, 45],
  ]);
  expect(activity.toolCalls[0]).toMatchObject({
    arguments: { path: "Write.txt" },
    result: { content: [{ type: "text", text: "Write done" }] },
    fidelity: "proxy",
    startedAt: at(1),
  });
  expect(activity.toolCalls[2]!.errorType).toBe("tool_error");
  expect(activity.toolCallsTruncated).toBe(false);

  // Text, retries, usage, the final answer and errors; never another attempt's events.
  expect(activity.events.map((e) => e.event)).toEqual([
    { type: "text", text: "Let me " },
    { type: "text", text: "look." },
    { type: "retry", attempt: 1, delayMs: 500, status: 429, message: "rate limited" },
    { type: "usage", inputTokens: 120, outputTokens: 30, estimated: false },
    { type: "final", text: "All done.", turns: 2 },
  ]);
  const seqs = activity.events.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(activity.events.every((e) => e.at instanceof Date)).toBe(true);
  expect(activity.eventsTruncated).toBe(false);
  expect(activity.status).toBe("succeeded");
});

it("lists only the latest events of a busy step, and says so", async () => {
  const activity = await dashboardCaller({ db }, adminId).runs.stepActivity({
    runId,
    stepRunId: otherStepId,
  });
  expect(activity.eventsTruncated).toBe(true);
  expect(activity.events).toHaveLength(STEP_ACTIVITY_LIMITS.events);
  expect(activity.events.at(-1)!.event).toEqual({
    type: "error",
    code: "EXECUTION.TIMEOUT",
    message: "took too long",
  });
  // The last events, the first ones left out: chunk 21 .. chunk 519, then the error.
  expect(activity.events[0]!.event).toEqual({ type: "text", text: "chunk 21 " });
  expect(activity.toolCalls.map((c) => c.toolName)).toEqual(["Bash"]);
});

it("lists only the latest tool calls of a step that made too many, and says so", async () => {
  const busyRunId = await newRun();
  const step = await startStepRun(db, {
    teamId,
    runId: busyRunId,
    stateName: "agent",
    stepType: "agent",
    attempt: 1,
    path: STEP_PATH,
  });
  const total = STEP_ACTIVITY_LIMITS.toolCalls + 5;
  await insertToolCalls(
    db,
    teamId,
    busyRunId,
    Array.from({ length: total }, (_, i) =>
      call(step.id, `t${i}`, 0, { startedAt: new Date(at(0).getTime() + i) }),
    ),
  );
  const activity = await dashboardCaller({ db }, adminId).runs.stepActivity({
    runId: busyRunId,
    stepRunId: step.id,
  });
  expect(activity.toolCallsTruncated).toBe(true);
  expect(activity.toolCalls).toHaveLength(STEP_ACTIVITY_LIMITS.toolCalls);
  expect(activity.toolCalls[0]!.toolName).toBe("t5");
  expect(activity.toolCalls.at(-1)!.toolName).toBe(`t${total - 1}`);
  expect(
    (await dashboardCaller({ db }, adminId).runs.get({ id: busyRunId })).steps[0]!.toolCallCount,
  ).toBe(total);
});

it("keeps another team's steps out of reach, and a step of one run out of another's", async () => {
  const other = await db.team.create({ data: { slug: "other", name: "Other" } });
  const stranger = await db.user.create({ data: { email: "s@test.local", name: "S" } });
  await db.membership.create({ data: { teamId: other.id, userId: stranger.id, role: "owner" } });
  const strangerToken = (
    await createApiToken(db, { teamId: other.id, userId: stranger.id, name: "x" })
  ).token;

  await expect(
    dashboardCaller({ db }, stranger.id).runs.stepActivity({ runId, stepRunId: agentStepId }),
  ).rejects.toMatchObject({ code: "NOT_FOUND" });
  expect(await rest(`/runs/${runId}/steps/${agentStepId}/activity`, strangerToken)).toMatchObject({
    status: 404,
    body: { error: { code: "NOT_FOUND" } },
  });

  const elsewhere = await newRun();
  await expect(
    dashboardCaller({ db }, adminId).runs.stepActivity({
      runId: elsewhere,
      stepRunId: agentStepId,
    }),
  ).rejects.toMatchObject({ code: "NOT_FOUND" });
  expect((await rest(`/runs/${elsewhere}/steps/${agentStepId}/activity`)).status).toBe(404);
});

it("answers GET /runs/{id}/steps/{stepId}/activity with the same contract, timestamps as ISO 8601", async () => {
  const { status, body } = await rest(`/runs/${runId}/steps/${agentStepId}/activity`);
  expect(status).toBe(200);
  expect((body.toolCalls as { startedAt: string }[])[0]!.startedAt).toBe(at(1).toISOString());
  const parsed = stepActivityResponse.parse(body);
  const viaTrpc = await dashboardCaller({ db }, adminId).runs.stepActivity({
    runId,
    stepRunId: agentStepId,
  });
  expect(parsed).toEqual(viaTrpc);
});

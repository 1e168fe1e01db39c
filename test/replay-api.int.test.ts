/**
 * The replay operations through the web app's REST handler and tRPC procedures, on a real
 * database and queue (no worker: the replay attempts a worker would record are written as
 * rows): starting a replay of a finished agent attempt (a run of the same version, lane and
 * inputs, queued, audited), what cannot be replayed (an attempt that resumed a continue_from
 * session among it), compare, examples, suite replays and their table, agent versions; team
 * isolation and roles on each.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_QUEUE, workerHeartbeatKey, type RunJob, type WorkerInfo } from "@switchyard/core/runs";
import { createApiToken, createTeamWithOwner, saveWorkflowVersion, type Db } from "@switchyard/db";
import { EDITING_CALLS as CALLS, finishedRun, recordedAttempt } from "@switchyard/testing/db";
import pins from "../scripts/agents.json";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller, type RestCall } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";
import { randomPrefix } from "./helpers/worker-process";

let database: SeededDatabase;
let db: Db;
let redis: Redis;
let prefix: string;
let queue: Queue<RunJob>;
let call: RestCall;
let teamId: string;
let adminId: string;
let viewerToken: string;
let otherToken: string;
let workflowId: string;
let versionId: string;

const WORKFLOW = `name: replayed
inputs:
  - name: ticket
    type: string
states:
  initial: fix
  fix:
    type: agent
    provider: claude
    prompt: "Fix {{inputs.ticket}}"
    on_success: done
  done:
    type: terminal
`;

const sourceAttempt = async (overrides: Partial<Parameters<typeof recordedAttempt>[1]> = {}) => {
  const run = await finishedRun(db, { teamId, workflowId, workflowVersionId: versionId });
  await db.run.update({ where: { id: run.id }, data: { inputs: { ticket: "T-1" } } });
  const step = await recordedAttempt(db, {
    teamId,
    runId: run.id,
    output: "Fixed.\nAll tests pass.",
    calls: CALLS,
    model: "sonnet",
    ...overrides,
  });
  return { runId: run.id, stepRunId: step.id };
};

/** What the worker records of an attempt that resumed `from`'s session (`continue_from`). */
const markContinued = async (stepRunId: string, from: string) => {
  const step = await db.stepRun.findUniqueOrThrow({ where: { id: stepRunId } });
  await db.stepRun.update({
    where: { id: stepRunId },
    data: { agentRequest: { ...(step.agentRequest as object), continueFrom: from } },
  });
};

/** A replay of `attempt` that is refused with `status` and `code` at stepRunId, starting no run: its error. */
const refusedReplay = async (
  attempt: { runId: string; stepRunId: string },
  status: number,
  code: string,
) => {
  const runs = await db.run.count({ where: { teamId } });
  const refused = await call("POST", `/runs/${attempt.runId}/steps/${attempt.stepRunId}/replay`);
  expect(refused.status).toBe(status);
  expect(refused.body.error).toMatchObject({ code, location: { path: "stepRunId" } });
  expect(await db.run.count({ where: { teamId } })).toBe(runs);
  return refused.body.error;
};

beforeAll(async () => {
  database = await openSeededDatabase();
  ({ db, teamId, adminId } = database);
  redis = new Redis(process.env.REDIS_URL!);
  prefix = randomPrefix();
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  const token = (await createApiToken(db, { teamId, userId: adminId, name: "ci" })).token;
  call = restCaller({ db, queue, redis, prefix }, () => token);
  const viewerId = await addMember(db, teamId, {
    email: "viewer@test.local",
    name: "Viewer",
    role: "viewer",
  });
  viewerToken = (await createApiToken(db, { teamId, userId: viewerId, name: "v" })).token;
  const otherOwner = await db.user.create({ data: { email: "o@test.local", name: "Other" } });
  const other = await createTeamWithOwner(db, { name: "Other team", ownerId: otherOwner.id });
  otherToken = (await createApiToken(db, { teamId: other.id, userId: otherOwner.id, name: "o" }))
    .token;
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "replayed",
    files: { "workflow.yaml": WORKFLOW },
  });
  workflowId = version.workflowId;
  versionId = version.id;
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await database?.close();
});

describe("replay.start", () => {
  it("queues a run of the same version, lane and inputs that names the attempt and the changes, audited", async () => {
    const source = await sourceAttempt();
    const started = await call("POST", `/runs/${source.runId}/steps/${source.stepRunId}/replay`, {
      body: { model: "opus", agentVersion: "latest", unmatched: "live_builtins" },
    });
    expect(started).toMatchObject({ status: 202, body: { status: "queued" } });
    const id = started.body.id as string;
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    expect(run).toMatchObject({
      teamId,
      trigger: "replay",
      workflowVersionId: versionId,
      lane: "default",
      inputs: { ticket: "T-1" },
      replayOfId: source.stepRunId,
      replayOptions: { model: "opus", agentVersion: "latest", unmatched: "live_builtins" },
      startedById: adminId,
    });
    expect((await queue.getJob(id))?.data).toMatchObject({ runId: id, teamId });
    const audit = await db.auditLog.findFirstOrThrow({ where: { teamId, targetId: id } });
    expect(audit).toMatchObject({
      action: "run.replay",
      actorUserId: adminId,
      metadata: { replayOfId: source.stepRunId, model: "opus" },
    });
    // the dashboard starts the same way
    const viaTrpc = await dashboardCaller({ db, queue, redis }, adminId).replay.start({
      runId: source.runId,
      stepRunId: source.stepRunId,
      prompt: "Fix it differently",
    });
    expect((await db.run.findUniqueOrThrow({ where: { id: viaTrpc.id } })).replayOptions).toEqual({
      prompt: "Fix it differently",
    });
  });

  it("refuses what cannot be replayed with USER.REPLAY.NOT_REPLAYABLE, and a bad change by name", async () => {
    const running = await sourceAttempt({ status: "running" });
    const unrecorded = await sourceAttempt({ agentRequest: null });
    const shellRun = await finishedRun(db, { teamId, workflowId, workflowVersionId: versionId });
    const shell = await db.stepRun.create({
      data: { teamId, runId: shellRun.id, stateName: "s", stepType: "step", status: "succeeded" },
    });
    for (const [attempt, why] of [
      [running, "has not finished"],
      [unrecorded, "request was not recorded"],
      [{ runId: shellRun.id, stepRunId: shell.id }, "not an agent step"],
    ] as const) {
      const refused = await call(
        "POST",
        `/runs/${attempt.runId}/steps/${attempt.stepRunId}/replay`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "USER.REPLAY.NOT_REPLAYABLE" });
      expect(refused.body.error?.message).toContain(why);
    }
    const source = await sourceAttempt();
    const bad = await call("POST", `/runs/${source.runId}/steps/${source.stepRunId}/replay`, {
      body: { provider: "copilot" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.location).toMatchObject({ path: "provider" });
    // the attempt must be of the run the path names
    const elsewhere = await call("POST", `/runs/${shellRun.id}/steps/${source.stepRunId}/replay`);
    expect(elsewhere.status).toBe(404);
    // a replay starts from the workspace the attempt started from: without it, none starts
    const unkept = await sourceAttempt({ snapshot: null });
    await refusedReplay(unkept, 409, "USER.REPLAY.NO_SNAPSHOT");
  });

  it("refuses an attempt that resumed another step's session (continue_from), and starts nothing", async () => {
    const source = await sourceAttempt({ stateName: "recall" });
    await markContinued(source.stepRunId, "seed");
    const error = await refusedReplay(source, 400, "USER.REPLAY.NOT_REPLAYABLE");
    expect(error?.message).toContain('resumed the session of "seed" (continue_from)');
  });

  it("is refused to viewers and to other teams, and starts nothing", async () => {
    const source = await sourceAttempt();
    const before = await db.run.count({ where: { replayOfId: source.stepRunId } });
    const path = `/runs/${source.runId}/steps/${source.stepRunId}/replay`;
    expect((await call("POST", path, { token: viewerToken })).status).toBe(403);
    const foreign = await call("POST", path, { token: otherToken });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await db.run.count({ where: { replayOfId: source.stepRunId } })).toBe(before);
  });
});

describe("replay.compare", () => {
  it("compares two attempts, and a replay's attempt with its source by default", async () => {
    const source = await sourceAttempt();
    const replayRun = await finishedRun(db, {
      teamId,
      workflowId,
      workflowVersionId: versionId,
      replayOfId: source.stepRunId,
    });
    const replay = await recordedAttempt(db, {
      teamId,
      runId: replayRun.id,
      output: "Fixed.\nOne test still fails.",
      model: "opus",
      inputTokens: 1500,
      calls: [
        { ...CALLS[0]!, replay: "recorded" },
        { ...CALLS[1]!, arguments: { path: "src/a.ts", old: "1", new: "3" }, replay: "unmatched" },
        { ...CALLS[2]!, replay: "recorded" },
      ],
    });
    const compared = await call("GET", `/compare?a=${source.stepRunId}&b=${replay.id}`);
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({
      match: false,
      sameSequence: false,
      sameAnswer: false,
      firstDivergence: 1,
      a: { id: source.stepRunId, model: "sonnet" },
      b: { id: replay.id, model: "opus" },
      inputTokens: { a: 1000, b: 1500, delta: 500 },
    });
    const calls = compared.body.calls as { arguments: unknown; b: { replay: string } }[];
    expect(calls[1]?.arguments).toEqual([{ path: "$.new", kind: "changed", a: "2", b: "3" }]);
    expect(calls[1]?.b.replay).toBe("unmatched");
    const lines = (compared.body.answer as { lines: { kind: string; text: string }[] }).lines;
    expect(lines).toContainEqual({ kind: "add", text: "One test still fails.", newLine: 2 });

    const bySource = await dashboardCaller({ db }, adminId).replay.compare({ b: replay.id });
    expect(bySource.a.id).toBe(source.stepRunId);
    expect(bySource.firstDivergence).toBe(1);
  });

  it("says when b is no replay's attempt, and hides other teams' attempts", async () => {
    const one = await sourceAttempt();
    const two = await sourceAttempt();
    expect((await call("GET", `/compare?b=${one.stepRunId}`)).body.error).toMatchObject({
      code: "USER.REPLAY.NOT_A_REPLAY",
    });
    const same = await call("GET", `/compare?a=${one.stepRunId}&b=${two.stepRunId}`);
    expect(same.body).toMatchObject({ match: true, firstDivergence: null });
    const foreign = await call("GET", `/compare?a=${one.stepRunId}&b=${two.stepRunId}`, {
      token: otherToken,
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    // a viewer reads
    expect(
      (await call("GET", `/compare?a=${one.stepRunId}&b=${two.stepRunId}`, { token: viewerToken }))
        .status,
    ).toBe(200);
  });
});

describe("examples and suite replays", () => {
  it("marks and unmarks examples (not viewers, not other teams), and the list filters them", async () => {
    const { runId } = await sourceAttempt();
    expect((await call("PUT", `/runs/${runId}/example`, { token: viewerToken })).status).toBe(403);
    expect((await call("PUT", `/runs/${runId}/example`, { token: otherToken })).status).toBe(404);
    const marked = await call("PUT", `/runs/${runId}/example`);
    expect(marked.status).toBe(200);
    expect(marked.body.exampleAt).toEqual(expect.any(String));
    const listed = await call("GET", `/runs?example=true&workflowId=${workflowId}`);
    expect((listed.body.runs as { id: string }[]).map((r) => r.id)).toEqual([runId]);
    const viaTrpc = await dashboardCaller({ db }, adminId).runs.unmarkExample({ id: runId });
    expect(viaTrpc.exampleAt).toBeNull();
    const none = await call("GET", `/runs?example=true&workflowId=${workflowId}`);
    expect(none.body.runs).toEqual([]);
  });

  it("replays the last attempt of each agent state of each example, and tabulates matches and divergences", async () => {
    const empty = await call("POST", `/workflows/${workflowId}/replay-suites`, { body: {} });
    expect(empty.body.error).toMatchObject({ code: "USER.REPLAY.NO_EXAMPLES" });

    const first = await sourceAttempt();
    // the same state's second attempt in the same run: only it is replayed
    const retried = await recordedAttempt(db, {
      teamId,
      runId: first.runId,
      output: "Fixed.\nAll tests pass.",
      calls: CALLS,
      attempt: 2,
    });
    const second = await sourceAttempt({ output: "Second example" });
    // a state that resumed another's session (continue_from) cannot be replayed: left out
    const resumed = await recordedAttempt(db, {
      teamId,
      runId: second.runId,
      stateName: "recall",
      output: "Recalled",
      calls: CALLS,
    });
    await markContinued(resumed.id, "fix");
    // an example whose workspace was not kept cannot be replayed: the suite leaves it out
    const unkept = await sourceAttempt({ output: "Unkept", snapshot: null });
    for (const runId of [first.runId, second.runId, unkept.runId])
      expect((await call("PUT", `/runs/${runId}/example`)).status).toBe(200);

    expect(
      (await call("POST", `/workflows/${workflowId}/replay-suites`, { token: viewerToken })).status,
    ).toBe(403);
    const started = await call("POST", `/workflows/${workflowId}/replay-suites`, {
      body: { model: "opus" },
    });
    expect(started.status).toBe(202);
    const suiteId = started.body.id as string;
    const runs = started.body.runs as { id: string; replayOfId: string }[];
    expect(runs.map((r) => r.replayOfId).sort()).toEqual([retried.id, second.stepRunId].sort());
    for (const run of runs) {
      expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        replaySuiteId: suiteId,
        replayOptions: { model: "opus" },
        trigger: "replay",
      });
      expect(await queue.getJob(run.id)).toBeTruthy();
    }

    // what a worker records: the first replay matches its source, the second diverges at its second call
    const byReplayOf = new Map(runs.map((r) => [r.replayOfId, r.id]));
    await recordedAttempt(db, {
      teamId,
      runId: byReplayOf.get(retried.id)!,
      output: "Fixed.\nAll tests pass.",
      calls: CALLS.map((c) => ({ ...c, replay: "recorded" as const })),
      costUsd: 0.03,
    });
    await recordedAttempt(db, {
      teamId,
      runId: byReplayOf.get(second.stepRunId)!,
      output: "Second example",
      calls: [CALLS[0]!, CALLS[2]!],
    });

    const shown = await call("GET", `/replay-suites/${suiteId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.counts).toEqual({ total: 2, matched: 1, diverged: 1, pending: 0 });
    const rows = shown.body.replays as {
      source: { stepRunId: string };
      match: boolean;
      firstDivergence: number | null;
      costUsd: { delta: number };
    }[];
    const matched = rows.find((r) => r.source.stepRunId === retried.id)!;
    expect(matched).toMatchObject({ match: true, firstDivergence: null, costUsd: { delta: 0.02 } });
    expect(rows.find((r) => r.source.stepRunId === second.stepRunId)).toMatchObject({
      match: false,
      firstDivergence: 1,
    });

    const listed = await dashboardCaller({ db }, adminId).replay.suiteList({ workflowId });
    expect(listed.suites[0]).toMatchObject({ id: suiteId, replays: 2, options: { model: "opus" } });
    expect((await call("GET", `/replay-suites/${suiteId}`, { token: otherToken })).status).toBe(
      404,
    );
    expect(
      (await call("GET", `/workflows/${workflowId}/replay-suites`, { token: otherToken })).status,
    ).toBe(404);
    expect(
      (await call("POST", `/workflows/${workflowId}/replay-suites`, { token: otherToken })).status,
    ).toBe(404);
  });
});

it("lists the pinned agent CLI versions for the replay form, and what a live worker installed with --latest", async () => {
  const listed = await call("GET", "/agents/versions", { token: viewerToken });
  expect(listed.status).toBe(200);
  expect(listed.body.agents).toContainEqual({
    agent: "claude",
    pinned: pins.agents.claude.version,
    latest: null,
  });
  // A worker's heartbeat says what its agents folder holds.
  const worker: WorkerInfo = {
    workerId: "w-latest",
    hostname: "h",
    pid: 1,
    sandboxLevel: "strict",
    concurrency: 1,
    startedAt: new Date().toISOString(),
    seenAt: new Date().toISOString(),
    agents: [
      {
        agent: "claude",
        pinned: pins.agents.claude.version,
        installed: pins.agents.claude.version,
        latest: "99.0.1",
        drift: false,
      },
    ],
  };
  await redis.set(workerHeartbeatKey(prefix, worker.workerId), JSON.stringify(worker), "EX", 60);
  const withLatest = await call("GET", "/agents/versions", { token: viewerToken });
  expect(withLatest.body.agents).toContainEqual({
    agent: "claude",
    pinned: pins.agents.claude.version,
    latest: "99.0.1",
  });
});

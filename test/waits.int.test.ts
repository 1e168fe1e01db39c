/**
 * Waits for a person's answer against real Postgres, Redis and BullMQ, through the
 * repository, the dashboard's procedures and the REST API: a wait is answered once (a second
 * answer is 409 USER.WAIT.ALREADY_ANSWERED, an expired one 409 USER.WAIT.EXPIRED), only by
 * whom its rule allows (403 USER.WAIT.NOT_ALLOWED naming the rule), never across teams (404);
 * answering a parked wait queues the run's job again under the run's id; the expiry sweep
 * closes due waits as their onExpiry says and resumes their runs; a waiting run is cancelled
 * at once with its waits; the requeue sweep takes up a waiting run whose resume was lost.
 * Runs and waits are written as the worker leaves them (the worker side is tested apart).
 */
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import {
  answerWait,
  cancelRunWaits,
  countOpenWaitsFor,
  createApiToken,
  enqueueRunJob,
  expireDueWaits,
  listWaits,
  type Db,
} from "@switchyard/db";
import { createLogger } from "../apps/worker/src/logger";
import { sweepLostRuns } from "../apps/worker/src/requeue-sweep";
import { expireWaitsOnce } from "../apps/worker/src/wait-expiry";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";
import { addWait, parkedRun, saveAgentWorkflow, type WaitOptions } from "./helpers/waiting-run";
import { randomPrefix, waitFor } from "./helpers/worker-process";

let seeded: SeededDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let prefix: string;
let workflow: { workflowId: string; workflowVersionId: string };
let memberId: string;
let viewerId: string;
let otherTeam: { teamId: string; adminId: string; workflowId: string; versionId: string };
const log = createLogger("error");

const services = () => ({ db, queue, redis, prefix });
const caller = (userId: string, teamId?: string) => dashboardCaller(services(), userId, teamId);
const rest: ReturnType<typeof restCaller> = (...args) => restCaller(services())(...args);
const tokenOf = async (userId: string, teamId = seeded.teamId) =>
  (await createApiToken(db, { teamId, userId, name: `t-${Math.random()}` })).token;

const park = (wait: WaitOptions = {}, startedById = seeded.adminId, lane = "default") =>
  parkedRun(db, {
    teamId: seeded.teamId,
    workflowId: workflow.workflowId,
    workflowVersionId: workflow.workflowVersionId,
    startedById,
    lane,
    wait,
  });

/** The run's job as a worker that parked it leaves it: completed. */
const completedJob = async (runId: string) => {
  await enqueueRunJob(queue, { runId, teamId: seeded.teamId });
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<RunJob>(RUN_QUEUE, async () => ({ status: "waiting" }), {
    connection,
    prefix,
  });
  try {
    await waitFor(
      async () => ((await queue.getJobState(runId)) === "completed" ? true : undefined),
      20_000,
      "the job completed",
    );
  } finally {
    await worker.close();
    connection.disconnect();
  }
  return (await queue.getJob(runId))!.timestamp;
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  const saved = await saveAgentWorkflow(db, seeded.teamId, "merge-bot");
  workflow = { workflowId: saved.workflowId, workflowVersionId: saved.id };
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  viewerId = await addMember(db, seeded.teamId, {
    email: "viewer@test.local",
    name: "Viewer",
    role: "viewer",
  });
  await db.lane.create({
    data: {
      teamId: seeded.teamId,
      name: "deploy",
      description: "",
      saveRoles: ["owner", "admin"],
      startRoles: ["owner", "admin"],
    },
  });
  const team = await db.team.create({ data: { name: "Other", slug: "other-team" } });
  const otherAdmin = await addMember(db, team.id, {
    email: "other@test.local",
    name: "Other admin",
    role: "admin",
  });
  await db.lane.create({
    data: {
      teamId: team.id,
      name: "default",
      description: "",
      saveRoles: ["owner", "admin", "member"],
      startRoles: ["owner", "admin", "member"],
    },
  });
  const other = await saveAgentWorkflow(db, team.id, "elsewhere");
  otherTeam = {
    teamId: team.id,
    adminId: otherAdmin,
    workflowId: other.workflowId,
    versionId: other.id,
  };
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await seeded?.close();
});

describe("answering a wait", () => {
  it("approves once over REST with a token, queues the parked run's job again under its id, and refuses a second answer with 409", async () => {
    const { runId, waitId } = await park();
    const finished = await completedJob(runId);
    const token = await tokenOf(memberId);

    const first = await rest("POST", `/waits/${waitId}/answer`, {
      token,
      body: { decision: "approve" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      resumed: true,
      wait: {
        id: waitId,
        status: "answered",
        answer: { decision: "approve" },
        answeredBy: { id: memberId, name: "Member" },
        mayAnswer: false,
      },
    });
    const tokenId = (await db.apiToken.findFirst({ where: { userId: memberId } }))!.id;
    expect((first.body.wait as { answeredByToken: string }).answeredByToken).toBe(tokenId);

    const job = await queue.getJob(runId);
    expect(job?.id).toBe(runId);
    expect(job?.data).toEqual({ runId, teamId: seeded.teamId });
    expect(await queue.getJobState(runId)).toBe("waiting");
    expect(job!.timestamp).toBeGreaterThanOrEqual(finished);

    const again = await rest("POST", `/waits/${waitId}/answer`, {
      token,
      body: { decision: "deny" },
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe("USER.WAIT.ALREADY_ANSWERED");

    const audit = await db.auditLog.findMany({
      where: { teamId: seeded.teamId, targetId: waitId },
    });
    expect(audit.map((a) => a.action)).toEqual(["wait.answered"]);
    expect(audit[0]!.metadata).toEqual({ runId, kind: "tool_call", decision: "approve" });
    expect(audit[0]!.actorToken).toBe(tokenId);
    expect(JSON.stringify(audit[0])).not.toContain("acme/api");
  });

  it("denies with a message through the dashboard's procedure", async () => {
    const { waitId } = await park({ arguments: { repo: "acme/web", number: 7 } });
    const answered = await caller(memberId).waits.answer({
      id: waitId,
      decision: "deny",
      message: "not on a Friday",
    });
    expect(answered.wait.answer).toEqual({ decision: "deny", message: "not on a Friday" });
    await expect(
      caller(seeded.adminId).waits.answer({ id: waitId, decision: "approve" }),
    ).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "USER.WAIT.ALREADY_ANSWERED" } });
  });

  it("refuses an expired wait with 409 USER.WAIT.EXPIRED, even before the sweep closed it", async () => {
    const { waitId } = await park({ expiresAt: new Date(Date.now() - 1000) });
    const token = await tokenOf(seeded.adminId);
    const res = await rest("POST", `/waits/${waitId}/answer`, {
      token,
      body: { decision: "approve" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe("USER.WAIT.EXPIRED");
    expect((await db.wait.findUnique({ where: { id: waitId } }))?.status).toBe("open");
  });

  it("refuses a viewer, someone outside the lane's start roles, a role under the minimum and the starter of a notStarter wait with 403 naming the rule", async () => {
    const viewer = await park();
    const deploy = await park({}, seeded.adminId, "deploy");
    const adminOnly = await park({ minRole: "admin" });
    const fourEyes = await park({ notStarter: true }, memberId);
    const memberToken = await tokenOf(memberId);
    const viewerToken = await tokenOf(viewerId);
    const answer = (waitId: string, token: string) =>
      rest("POST", `/waits/${waitId}/answer`, { token, body: { decision: "approve" } });

    const cases = [
      [await answer(viewer.waitId, viewerToken), /role member or above; yours is viewer/],
      [await answer(deploy.waitId, memberToken), /may start runs in lane "deploy"/],
      [await answer(adminOnly.waitId, memberToken), /role admin or above/],
      [await answer(fourEyes.waitId, memberToken), /other than the person who started the run/],
    ] as const;
    for (const [res, message] of cases) {
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe("USER.WAIT.NOT_ALLOWED");
      expect(res.body.error?.message).toMatch(message);
    }
    // The starter's four-eyes wait is someone else's to answer: the admin may.
    expect((await answer(fourEyes.waitId, await tokenOf(seeded.adminId))).status).toBe(200);
    expect((await db.wait.findUnique({ where: { id: viewer.waitId } }))?.status).toBe("open");
  });

  it("answers 404 for another team's wait and says so for a cancelled one", async () => {
    const theirs = await parkedRun(db, {
      teamId: otherTeam.teamId,
      workflowId: otherTeam.workflowId,
      workflowVersionId: otherTeam.versionId,
      startedById: otherTeam.adminId,
    });
    const token = await tokenOf(seeded.adminId);
    const res = await rest("POST", `/waits/${theirs.waitId}/answer`, {
      token,
      body: { decision: "approve" },
    });
    expect(res.status).toBe(404);
    expect((await rest("GET", `/waits/${theirs.waitId}`, { token })).status).toBe(404);

    const mine = await park();
    await cancelRunWaits(db, seeded.teamId, mine.runId);
    const cancelled = await rest("POST", `/waits/${mine.waitId}/answer`, {
      token,
      body: { decision: "approve" },
    });
    expect(cancelled.status).toBe(404);
    expect(cancelled.body.error?.message).toMatch(/cancelled/);
  });

  it("does not resume a run while another of its parked waits is open, then does with the last answer", async () => {
    const { runId, waitId } = await park();
    const second = await addWait(db, { teamId: seeded.teamId, runId, lane: "default" });
    const asker = { userId: seeded.adminId, role: "owner" as const };
    const a = await answerWait(db, {
      teamId: seeded.teamId,
      waitId,
      answer: { decision: "approve" },
      caller: asker,
    });
    expect(a.resume).toBe(false);
    const b = await answerWait(db, {
      teamId: seeded.teamId,
      waitId: second.id,
      answer: { decision: "approve" },
      caller: asker,
    });
    expect(b.resume).toBe(true);
  });
});

describe("listing waits", () => {
  it("lists the team's waits, mine=true only those the caller may answer, and counts them for the badge", async () => {
    const fresh = await openSeededDatabase();
    try {
      const saved = await saveAgentWorkflow(fresh.db, fresh.teamId, "lister");
      const member = await addMember(fresh.db, fresh.teamId, {
        email: "m@test.local",
        name: "M",
        role: "member",
      });
      await fresh.db.lane.create({
        data: {
          teamId: fresh.teamId,
          name: "deploy",
          description: "",
          saveRoles: ["owner", "admin"],
          startRoles: ["owner", "admin"],
        },
      });
      const on = (wait: WaitOptions, lane = "default", startedById = fresh.adminId) =>
        parkedRun(fresh.db, {
          teamId: fresh.teamId,
          workflowId: saved.workflowId,
          workflowVersionId: saved.id,
          startedById,
          lane,
          wait,
        });
      const open = await on({});
      const inDeploy = await on({}, "deploy");
      const own = await on({ notStarter: true }, "default", member);
      const adminOnly = await on({ minRole: "admin" });
      const asMember = { userId: member, role: "member" as const };

      const mine = await listWaits(fresh.db, fresh.teamId, asMember, { mine: true });
      expect(mine.waits.map((w) => w.id)).toEqual([open.waitId]);
      expect(await countOpenWaitsFor(fresh.db, fresh.teamId, asMember)).toBe(1);
      const asAdmin = { userId: fresh.adminId, role: "owner" as const };
      expect(await countOpenWaitsFor(fresh.db, fresh.teamId, asAdmin)).toBe(4);

      const all = await listWaits(fresh.db, fresh.teamId, asMember, { status: "open" });
      expect(all.waits.map((w) => w.id).sort()).toEqual(
        [open, inDeploy, own, adminOnly].map((r) => r.waitId).sort(),
      );
      const ownListed = all.waits.find((w) => w.id === own.waitId)!;
      expect(ownListed.mayAnswer).toBe(false);
      expect(ownListed.answerers).toMatch(/not the run's starter/);
      expect(ownListed.detail).toMatchObject({ tool: "github_merge_pull_request" });

      const page = await listWaits(fresh.db, fresh.teamId, asAdmin, { limit: 3 });
      expect(page.waits).toHaveLength(3);
      const rest2 = await listWaits(fresh.db, fresh.teamId, asAdmin, {
        limit: 3,
        cursor: page.nextCursor!,
      });
      expect(rest2.waits).toHaveLength(1);
      expect(rest2.nextCursor).toBeNull();
      const byRun = await listWaits(fresh.db, fresh.teamId, asAdmin, { runId: inDeploy.runId });
      expect(byRun.waits.map((w) => w.id)).toEqual([inDeploy.waitId]);
    } finally {
      await fresh.close();
    }
  });

  it("serves the list and the count on both surfaces", async () => {
    const { waitId } = await park();
    const token = await tokenOf(memberId);
    const listed = await rest("GET", "/waits?mine=true&limit=200", { token });
    expect(listed.status).toBe(200);
    expect((listed.body.waits as { id: string }[]).map((w) => w.id)).toContain(waitId);
    const one = await rest("GET", `/waits/${waitId}`, { token });
    expect(one.body).toMatchObject({ id: waitId, status: "open", mayAnswer: true });
    const counted = await caller(memberId).waits.count();
    expect(counted.open).toBeGreaterThanOrEqual(1);
    const bad = await rest("GET", "/waits?status=pending", { token });
    expect(bad.status).toBe(400);
  });
});

describe("expiry", () => {
  it("closes due waits as onExpiry says, with an audit entry, and queues their parked runs again", async () => {
    const denied = await park({ expiresAt: new Date(Date.now() - 500) });
    const failed = await park({ expiresAt: new Date(Date.now() - 500), onExpiry: "fail" });
    const byDefault = await park({
      expiresAt: new Date(Date.now() - 500),
      onExpiry: "default",
      defaultAnswer: { decision: "approve" },
    });
    const later = await park({ expiresAt: new Date(Date.now() + 60_000) });
    await completedJob(denied.runId);

    // Waits of earlier tests past their time expire too.
    const { runs, resumed } = await expireWaitsOnce({ db, queue, log });
    const due = [denied.runId, failed.runId, byDefault.runId];
    expect(runs.map((r) => r.runId)).toEqual(expect.arrayContaining(due));
    expect(runs.map((r) => r.runId)).not.toContain(later.runId);
    expect(resumed).toEqual(expect.arrayContaining(due));
    const read = (id: string) => db.wait.findUnique({ where: { id } });
    expect(await read(denied.waitId)).toMatchObject({
      status: "expired",
      answer: { decision: "deny", message: "the approval expired" },
    });
    expect((await read(failed.waitId))?.answer).toEqual({ decision: "fail" });
    expect((await read(byDefault.waitId))?.answer).toEqual({ decision: "approve" });
    expect((await read(later.waitId))?.status).toBe("open");
    expect(await queue.getJobState(denied.runId)).toBe("waiting");
    expect(await queue.getJobState(later.runId)).toBe("unknown");
    const audit = await db.auditLog.findFirst({
      where: { targetId: denied.waitId, action: "wait.expired" },
    });
    expect(audit?.actorUserId).toBeNull();
    // A second pass finds nothing due.
    expect(await expireDueWaits(db, new Date())).toEqual([]);
  });
});

describe("cancelling a waiting run", () => {
  it("ends it cancelled at once over REST and tRPC, its waiting step and open waits with it", async () => {
    const viaRest = await park();
    const token = await tokenOf(memberId);
    const res = await rest("POST", `/runs/${viaRest.runId}/cancel`, { token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "cancelled" });
    const run = await db.run.findUnique({ where: { id: viaRest.runId } });
    expect(run).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
    expect(run?.finishedAt).not.toBeNull();
    expect((await db.stepRun.findUnique({ where: { id: viaRest.stepRunId } }))?.status).toBe(
      "cancelled",
    );
    expect((await db.wait.findUnique({ where: { id: viaRest.waitId } }))?.status).toBe("cancelled");

    const viaTrpc = await park();
    expect(await caller(memberId).runs.cancel({ id: viaTrpc.runId })).toEqual({
      status: "cancelled",
    });
    expect((await db.run.findUnique({ where: { id: viaTrpc.runId } }))?.status).toBe("cancelled");
    await expect(caller(memberId).runs.cancel({ id: viaTrpc.runId })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("the requeue sweep", () => {
  it("queues a waiting run again whose waits are closed but whose job was lost, not one still parked", async () => {
    const lost = await park();
    const parked = await park();
    await db.wait.update({
      where: { id: lost.waitId },
      data: { status: "answered", answer: { decision: "approve" }, answeredAt: new Date() },
    });
    const { requeued } = await sweepLostRuns({
      db,
      queue,
      redis,
      prefix,
      workerId: "sweeper:1",
      minAgeMs: 1000,
      log,
      stopHere: () => false,
    });
    expect(requeued).toContain(lost.runId);
    expect(requeued).not.toContain(parked.runId);
    expect(await queue.getJobState(lost.runId)).toBe("waiting");
    expect(await queue.getJobState(parked.runId)).toBe("unknown");
  });
});

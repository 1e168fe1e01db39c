/**
 * The lane policy through the dashboard's procedures and the REST API, with a real worker:
 * call_workflow cannot reach a lane the starter may not start, operator code never calls
 * member-editable code, and a secret opens only for runs in its lanes (refused at save, at
 * start, and by the worker itself).
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import type { RunJob } from "@switchyard/core/runs";
import { createApiToken, createRun, saveWorkflowVersion, type Db } from "@switchyard/db";
import { resolveTeamVariables as resolveVariables } from "../apps/worker/src/team-variables";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller, type RestCall } from "./helpers/rest-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import type { WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let adminId: string;
let memberId: string;
let teamId: string;
let rest: RestCall;
let memberToken: string;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = (userId: string) => dashboardCaller({ db, queue, redis, prefix, keyring }, userId);

/** The AppError a procedure failed with (tRPC keeps it as the cause). */
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (!(cause instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return cause;
};

const bundle = (yaml: string) => ({ entry: "workflow.yaml", files: { "workflow.yaml": yaml } });
const calling = (name: string, callee: string, lane = "default") => `name: ${name}
lane: ${lane}
states:
  initial: call
  call:
    type: call_workflow
    workflow: ${callee}
    on_success: done
  done:
    type: terminal
    status: success
`;
const echo = (name: string, lane: string, text = name) =>
  `name: ${name}\nlane: ${lane}\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo ${text}\n`;

/** A run written and queued without the web's checks, as a bug or a stale job could leave one. */
const enqueueDirectly = async (workflowId: string, startedById: string | undefined) => {
  const workflow = await db.workflow.findFirstOrThrow({ where: { id: workflowId } });
  const run = await createRun(db, {
    teamId,
    workflowId,
    workflowVersionId: workflow.currentVersionId!,
    lane: workflow.lane,
    trigger: "api",
    startedById,
  });
  await queue.add("run", { runId: run.id, teamId }, { jobId: run.id });
  return run;
};

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack());
  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
  memberId = member.id;
  memberToken = (await createApiToken(db, { teamId, userId: memberId, name: "member-ci" })).token;
  rest = restCaller({ db, queue, redis, prefix });
  await caller(adminId).workflows.save(bundle(echo("ops-task", "operator", "privileged")));
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

describe("call_workflow and lanes", () => {
  it("refuses a member's save of a default workflow that calls an operator one, saying where", async () => {
    const error = await refusal(
      caller(memberId).workflows.save(bundle(calling("sneaky", "ops-task"))),
    );
    expect(error.code).toBe("USER.LANE.CALL_DENIED");
    expect(error.message).toContain('"sneaky" calls "ops-task" in lane "operator"');
    expect(error.location).toMatchObject({
      file: "workflow.yaml",
      path: "states.call.workflow",
      line: 6,
    });
    expect(await db.workflow.count({ where: { teamId, name: "sneaky" } })).toBe(0);

    const viaRest = await rest("POST", "/workflows", {
      token: memberToken,
      body: bundle(calling("sneaky", "ops-task")),
    });
    expect(viaRest).toMatchObject({
      status: 403,
      body: { error: { code: "USER.LANE.CALL_DENIED" } },
    });
  });

  it("lets an admin save and run it, but refuses a member's start of it (tRPC and REST)", async () => {
    const saved = await caller(adminId).workflows.save(bundle(calling("ops-wrapper", "ops-task")));
    const started = await caller(adminId).runs.start({ workflowId: saved.workflowId });
    const run = await runEnded(
      () => caller(adminId).runs.get({ id: started.id }),
      "the admin's run",
    );
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => s.stdout)).toContain("privileged\n");

    const runsBefore = await db.run.count({ where: { teamId } });
    const error = await refusal(caller(memberId).runs.start({ workflowId: saved.workflowId }));
    expect(error.code).toBe("USER.LANE.CALL_DENIED");
    expect(error.userMessage).toBe(
      '"ops-wrapper" calls "ops-task" in lane "operator", where your role (member) may not start runs',
    );
    const viaRest = await rest("POST", `/workflows/${saved.workflowId}/runs`, {
      token: memberToken,
      body: {},
    });
    expect(viaRest).toMatchObject({
      status: 403,
      body: { error: { code: "USER.LANE.CALL_DENIED" } },
    });
    expect(await db.run.count({ where: { teamId } })).toBe(runsBefore);
  });

  it("refuses at start a callee reached only transitively, as pinned, even if saved before the rule", async () => {
    // written straight to the store, as a workflow saved before the rule existed would be
    await saveWorkflowVersion(db, {
      teamId,
      name: "middle",
      lane: "default",
      files: { "workflow.yaml": calling("middle", "ops-task") },
    });
    const top = await saveWorkflowVersion(db, {
      teamId,
      name: "top",
      lane: "default",
      files: { "workflow.yaml": calling("top", "middle") },
    });
    const error = await refusal(caller(memberId).runs.start({ workflowId: top.workflowId }));
    expect(error.code).toBe("USER.LANE.CALL_DENIED");
    expect(error.location).toMatchObject({
      file: "middle/workflow.yaml",
      path: "states.call.workflow",
    });
  });

  it("has the worker refuse, before any step, a run whose pinned callees its starter may not start", async () => {
    const smuggled = await saveWorkflowVersion(db, {
      teamId,
      name: "smuggled",
      lane: "default",
      files: { "workflow.yaml": calling("smuggled", "ops-task") },
    });
    const run = await enqueueDirectly(smuggled.workflowId, memberId);
    const ended = await runEnded(
      () => caller(adminId).runs.get({ id: run.id }),
      "the member's smuggled run",
    );
    expect(ended).toMatchObject({ status: "failed", errorCode: "USER.LANE.CALL_DENIED" });
    expect(ended.steps).toEqual([]);
  });

  it("refuses an operator workflow that calls member-editable code, even for an admin", async () => {
    await caller(memberId).workflows.save(bundle(echo("member-helper", "default")));
    const error = await refusal(
      caller(adminId).workflows.save(
        bundle(calling("ops-calls-member", "member-helper", "operator")),
      ),
    );
    expect(error.code).toBe("USER.LANE.CALL_DENIED");
    expect(error.message).toContain(
      'a workflow in lane "operator" may not call one in lane "default"',
    );
  });

  it("refuses cancelling a run in a lane the member may not start", async () => {
    const ops = await db.workflow.findFirstOrThrow({ where: { teamId, name: "ops-task" } });
    const { id } = await caller(adminId).runs.start({ workflowId: ops.id });
    const error = await refusal(caller(memberId).runs.cancel({ id }));
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toContain('may not cancel runs in lane "operator"');
    await runEnded(() => caller(adminId).runs.get({ id }), "the operator run");
  });
});

describe("secrets and lanes", () => {
  const needsKey = (name: string, lane = "default", key = "OPS_KEY") =>
    `name: ${name}\nlane: ${lane}\nenv:\n  - ${key}\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'test -n "$${key}" && echo "has the key: $${key}"'\n`;

  beforeAll(async () => {
    await caller(adminId).variables.set({
      name: "OPS_KEY",
      value: "ops-key-value-1234",
      secret: true,
    });
    await caller(adminId).variables.set({ name: "REGION", value: "eu-west", secret: false });
  });

  it("opens a new secret to operator only, and lists each secret's lanes (tRPC and REST)", async () => {
    expect(await caller(memberId).variables.list()).toEqual([
      expect.objectContaining({ name: "OPS_KEY", secret: true, value: null, lanes: ["operator"] }),
      expect.objectContaining({ name: "REGION", secret: false, value: "eu-west", lanes: [] }),
    ]);
    const listed = await rest("GET", "/variables", { token: memberToken });
    expect(listed.body.variables).toContainEqual(
      expect.objectContaining({ name: "OPS_KEY", lanes: ["operator"] }),
    );
    expect(JSON.stringify(listed.body)).not.toContain("ops-key-value-1234");
  });

  it("refuses a member's save of a workflow naming a secret its lane cannot open, in env or in a template", async () => {
    const declared = await refusal(
      caller(memberId).workflows.save(bundle(needsKey("reads-ops-key"))),
    );
    expect(declared.code).toBe("USER.LANE.SECRET_DENIED");
    expect(declared.message).toBe(
      'secret "OPS_KEY" is not open to lane "default" (it is open to "operator")',
    );
    expect(declared.location).toEqual({ file: "workflow.yaml", path: "env" });
    const templated = `name: templated\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'echo {{.env.OPS_KEY}}'\n`;
    expect((await refusal(caller(memberId).workflows.save(bundle(templated)))).code).toBe(
      "USER.LANE.SECRET_DENIED",
    );
    expect(
      await rest("POST", "/workflows", {
        token: memberToken,
        body: bundle(needsKey("reads-ops-key")),
      }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: "USER.LANE.SECRET_DENIED" } },
    });
    expect(
      await db.workflow.count({ where: { teamId, name: { in: ["reads-ops-key", "templated"] } } }),
    ).toBe(0);
  });

  it("refuses a start naming it, even by an admin, until an admin opens the secret to the lane", async () => {
    // as a workflow saved before secrets had lanes would be
    const old = await saveWorkflowVersion(db, {
      teamId,
      name: "old-reader",
      lane: "default",
      files: { "workflow.yaml": needsKey("old-reader") },
    });
    expect((await refusal(caller(adminId).runs.start({ workflowId: old.workflowId }))).code).toBe(
      "USER.LANE.SECRET_DENIED",
    );
    expect((await refusal(caller(memberId).runs.start({ workflowId: old.workflowId }))).code).toBe(
      "USER.LANE.SECRET_DENIED",
    );

    expect(
      (
        await refusal(
          caller(memberId).variables.setLanes({ name: "OPS_KEY", lanes: ["default", "operator"] }),
        )
      ).code,
    ).toBe("FORBIDDEN");
    expect(
      (await refusal(caller(adminId).variables.setLanes({ name: "OPS_KEY", lanes: ["nowhere"] })))
        .code,
    ).toBe("USER.INPUT.VALIDATION_FAILED");
    expect(
      await caller(adminId).variables.setLanes({ name: "OPS_KEY", lanes: ["operator", "default"] }),
    ).toEqual({ name: "OPS_KEY", lanes: ["default", "operator"] });

    const { id } = await caller(memberId).runs.start({ workflowId: old.workflowId });
    const run = await runEnded(
      () => caller(memberId).runs.get({ id }),
      "the member's run with the secret",
    );
    expect(run.status).toBe("succeeded");
    expect(run.steps[0]!.stdout).toBe("has the key: [REDACTED]\n");

    // re-entering the value keeps the lanes chosen; closing it again refuses the next start
    await caller(adminId).variables.set({
      name: "OPS_KEY",
      value: "ops-key-value-5678",
      secret: true,
    });
    expect(
      (await caller(adminId).variables.list()).find((v) => v.name === "OPS_KEY")?.lanes,
    ).toEqual(["default", "operator"]);
    await caller(adminId).variables.setLanes({ name: "OPS_KEY", lanes: ["operator"] });
    expect((await refusal(caller(memberId).runs.start({ workflowId: old.workflowId }))).code).toBe(
      "USER.LANE.SECRET_DENIED",
    );
  });

  it("lets an admin choose lanes through the REST API, and no one else", async () => {
    const adminToken = (await createApiToken(db, { teamId, userId: adminId, name: "admin-ci" }))
      .token;
    const restWithKey = restCaller({ db, queue, redis, prefix, keyring });
    expect(
      await restWithKey("PUT", "/variables/CI_KEY", {
        token: adminToken,
        body: { value: "ci-key-value-1234", secret: true, lanes: ["default"] },
      }),
    ).toMatchObject({
      status: 200,
      body: { name: "CI_KEY", secret: true, lanes: ["default"] },
    });
    expect(
      await restWithKey("PUT", "/variables/CI_KEY/lanes", {
        token: adminToken,
        body: { lanes: ["operator"] },
      }),
    ).toMatchObject({ status: 200, body: { lanes: ["operator"] } });
    expect(
      await restWithKey("PUT", "/variables/CI_KEY/lanes", {
        token: memberToken,
        body: { lanes: ["default"] },
      }),
    ).toMatchObject({ status: 403 });
    expect(
      await restWithKey("PUT", "/variables/REGION/lanes", {
        token: adminToken,
        body: { lanes: ["default"] },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { code: "USER.INPUT.VALIDATION_FAILED" } },
    });
    expect(
      await restWithKey("PUT", "/variables/PLAIN", {
        token: adminToken,
        body: { value: "x", secret: false, lanes: ["default"] },
      }),
    ).toMatchObject({ status: 400 });
    expect((await restWithKey("DELETE", "/variables/CI_KEY", { token: adminToken })).status).toBe(
      200,
    );
  });

  it("refuses a sub-workflow's secret its caller's lane cannot open", async () => {
    await saveWorkflowVersion(db, {
      teamId,
      name: "child-reader",
      lane: "default",
      files: { "workflow.yaml": needsKey("child-reader") },
    });
    const parent = await saveWorkflowVersion(db, {
      teamId,
      name: "parent-of-reader",
      lane: "default",
      files: { "workflow.yaml": calling("parent-of-reader", "child-reader") },
    });
    const error = await refusal(caller(adminId).runs.start({ workflowId: parent.workflowId }));
    expect(error.code).toBe("USER.LANE.SECRET_DENIED");
    expect(error.location).toEqual({ file: "child-reader/workflow.yaml", path: "env" });
  });

  it("has the worker refuse to open a secret for a run of another lane", async () => {
    await expect(
      resolveVariables(db, keyring, teamId, ["OPS_KEY", "REGION"], "default"),
    ).rejects.toMatchObject({ code: "USER.LANE.SECRET_DENIED" });
    expect((await resolveVariables(db, keyring, teamId, ["OPS_KEY"], "operator")).values).toEqual({
      OPS_KEY: "ops-key-value-5678",
    });

    const smuggled = await saveWorkflowVersion(db, {
      teamId,
      name: "smuggled-reader",
      lane: "default",
      files: { "workflow.yaml": needsKey("smuggled-reader") },
    });
    const run = await enqueueDirectly(smuggled.workflowId, undefined);
    const ended = await runEnded(
      () => caller(adminId).runs.get({ id: run.id }),
      "the smuggled run",
    );
    expect(ended).toMatchObject({ status: "failed", errorCode: "USER.LANE.SECRET_DENIED" });
    expect(ended.steps).toEqual([]);
  });
});

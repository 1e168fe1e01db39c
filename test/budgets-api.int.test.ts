/**
 * The team's budget limits over REST (the dashboard's procedures are the same operations):
 * admins set a limit on the team, a lane or a workflow per day or month, every member lists
 * them with their period's spend from the ledger, each change is audited, and what is wrong
 * is a 4xx naming the field.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import {
  createApiToken,
  createDb,
  listAuditLog,
  recordSpend,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { budgetLimit, listBudgetsResponse } from "~/server/contract/budgets.types";
import { restCaller, type RestCall } from "./helpers/rest-caller";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let database: TestDatabase;
let db: Db;
let teamId: string;
let adminId: string;
let memberToken: string;
let workflowId: string;
let call: RestCall;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  teamId = seeded.team.id;
  adminId = seeded.admin.id;
  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
  const adminToken = (await createApiToken(db, { teamId, userId: adminId, name: "ci" })).token;
  memberToken = (await createApiToken(db, { teamId, userId: member.id, name: "member-ci" })).token;
  call = restCaller(
    { db, queue: undefined as never, redis: undefined as never, prefix: "unused", keyring },
    () => adminToken,
  );
  workflowId = (
    await saveWorkflowVersion(db, {
      teamId,
      name: "nightly",
      files: {
        "workflow.yaml": "name: nightly\nstates:\n  initial: done\n  done:\n    type: terminal\n",
      },
    })
  ).workflowId;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

it("sets limits on the team, a lane and a workflow, and lists them with their period's spend", async () => {
  const team = await call("PUT", "/budgets", {
    body: { scope: "team", period: "month", cost_usd: 100, tokens: 5_000_000 },
  });
  expect(team.status).toBe(200);
  expect(budgetLimit.parse(team.body)).toEqual(team.body);
  const lane = await call("PUT", "/budgets", {
    body: { scope: "lane", target: "default", period: "day", calls: { "github_create_*": 3 } },
  });
  expect(lane.status).toBe(200);
  const wf = await call("PUT", "/budgets", {
    body: { scope: "workflow", target: workflowId, period: "day", cost_usd: 2 },
  });
  expect(wf.body).toMatchObject({ scope: "workflow", targetName: "nightly", cost_usd: 2 });
  // Setting the same scope, target and period again replaces it.
  const again = await call("PUT", "/budgets", {
    body: { scope: "workflow", target: workflowId, period: "day", cost_usd: 3 },
  });
  expect(again.body).toMatchObject({ id: wf.body.id, cost_usd: 3 });

  const subject = { teamId, runId: "r1", workflowId, lane: "default", memberId: adminId };
  await recordSpend(db, subject, { kind: "model", tokens: 1200, costUsd: 0.5 });
  await recordSpend(db, subject, { kind: "call", tool: "github_create_issue" });
  // Another team's spend is not this team's.
  const other = await db.team.create({ data: { slug: "other", name: "Other" } });
  await recordSpend(
    db,
    { ...subject, teamId: other.id },
    { kind: "model", tokens: 99, costUsd: 9 },
  );

  const list = await call("GET", "/budgets", { token: memberToken });
  expect(list.status).toBe(200);
  expect(listBudgetsResponse.parse(list.body)).toEqual(list.body);
  const budgets = list.body.budgets as { scope: string; spent: unknown; period: string }[];
  expect(budgets.map((b) => b.scope)).toEqual(["team", "lane", "workflow"]);
  expect(budgets[0]).toMatchObject({
    period: "month",
    spent: { costUsd: 0.5, tokens: 1200, calls: { github_create_issue: 1 } },
  });
  const audit = await listAuditLog(db, { teamId, actionPrefix: "budget.", limit: 50 });
  expect(audit.entries.map((e) => e.action)).toEqual(Array(4).fill("budget.set"));
  expect(audit.entries.at(-1)?.metadata).toMatchObject({
    scope: "team",
    period: "month",
    cost_usd: 100,
  });
});

it("refuses what is wrong with a 4xx naming the field", async () => {
  expect(
    await call("PUT", "/budgets", {
      body: { scope: "lane", target: "nope", period: "day", tokens: 5 },
    }),
  ).toMatchObject({
    status: 400,
    body: { error: { code: "USER.BUDGET.INVALID", location: { path: "target" } } },
  });
  expect(
    await call("PUT", "/budgets", {
      body: { scope: "workflow", target: "wf_nope", period: "day", tokens: 5 },
    }),
  ).toMatchObject({
    status: 400,
    body: { error: { code: "USER.BUDGET.INVALID", location: { path: "target" } } },
  });
  expect(await call("PUT", "/budgets", { body: { scope: "team", period: "month" } })).toMatchObject(
    { status: 400, body: { error: { code: "USER.BUDGET.INVALID" } } },
  );
  expect(
    await call("PUT", "/budgets", {
      body: { scope: "team", target: "x", period: "month", tokens: 1 },
    }),
  ).toMatchObject({
    status: 400,
    body: { error: { code: "USER.BUDGET.INVALID", location: { path: "target" } } },
  });
  const negative = await call("PUT", "/budgets", {
    body: { scope: "team", period: "week", cost_usd: -1 },
  });
  expect(negative.status).toBe(400);
  expect(JSON.stringify(negative.body)).toContain("cost_usd");
});

it("lets a member read but not set or remove, and removes for an admin", async () => {
  expect(
    await call("PUT", "/budgets", {
      token: memberToken,
      body: { scope: "team", period: "day", tokens: 10 },
    }),
  ).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
  const [first] = (await call("GET", "/budgets")).body.budgets as { id: string }[];
  expect(await call("DELETE", `/budgets/${first!.id}`, { token: memberToken })).toMatchObject({
    status: 403,
  });
  expect(await call("DELETE", `/budgets/${first!.id}`)).toMatchObject({
    status: 200,
    body: { id: first!.id },
  });
  expect(await call("DELETE", `/budgets/${first!.id}`)).toMatchObject({
    status: 404,
    body: { error: { code: "NOT_FOUND" } },
  });
});

/**
 * A team's settings against a real database: every member reads the name and the limit on
 * runs at once, admins change them (tRPC and REST share the contract), a bad limit is refused
 * naming the field, each change is one audit entry with what changed, and the claim the
 * worker makes honours the lower of the team's limit and the operator's.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { claimQueuedRun, createApiToken, createRun, saveWorkflowVersion } from "@switchyard/db";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let seeded: SeededDatabase;

beforeAll(async () => {
  seeded = await openSeededDatabase();
});
afterAll(async () => {
  await seeded?.close();
});

const caller = (userId: string) =>
  dashboardCaller({ db: seeded.db, keyring }, userId, seeded.teamId);
let people = 0;
const person = (role: "viewer" | "member") =>
  addMember(seeded.db, seeded.teamId, {
    email: `${role}-${++people}@settings.test`,
    name: `${role} ${people}`,
    role,
  });
const rest = (token: string, method: string, body?: unknown) =>
  handleRest(
    {
      db: seeded.db,
      queue: () => {
        throw new Error("no queue here");
      },
      prefix: "unused",
      publish: async () => undefined,
    },
    new Request("http://localhost/api/v1/team", {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    "/team",
  );

it("shows every member the team's settings, lets admins change them, and audits each change", async () => {
  const viewer = await person("viewer");
  const member = await person("member");
  expect(await caller(viewer).teams.settings()).toEqual({
    name: expect.any(String) as unknown,
    maxConcurrentRuns: null,
  });
  await expect(caller(member).teams.update({ maxConcurrentRuns: 3 })).rejects.toMatchObject({
    code: "FORBIDDEN",
  });

  expect(await caller(seeded.adminId).teams.update({ maxConcurrentRuns: 3 })).toMatchObject({
    maxConcurrentRuns: 3,
  });
  expect(await caller(seeded.adminId).teams.update({ name: "Renamed team" })).toEqual({
    name: "Renamed team",
    maxConcurrentRuns: 3,
  });
  // The same again changes nothing and writes no entry.
  await caller(seeded.adminId).teams.update({ name: "Renamed team" });
  const entries = await seeded.db.auditLog.findMany({
    where: { teamId: seeded.teamId, action: "team.update" },
    orderBy: { createdAt: "asc" },
  });
  expect(entries.map((e) => e.metadata)).toEqual([
    { maxConcurrentRuns: { from: null, to: 3 } },
    { name: { from: expect.any(String) as unknown, to: "Renamed team" } },
  ]);

  await expect(caller(seeded.adminId).teams.update({ maxConcurrentRuns: 0 })).rejects.toMatchObject(
    { code: "BAD_REQUEST" },
  );
  expect(
    (await caller(seeded.adminId).teams.update({ maxConcurrentRuns: null })).maxConcurrentRuns,
  ).toBeNull();
});

it("serves the same over REST: GET for any member's token, PUT for an admin's, a bad limit a 400 naming the field", async () => {
  const { token: adminToken } = await createApiToken(seeded.db, {
    teamId: seeded.teamId,
    userId: seeded.adminId,
    name: "team settings",
    role: "admin",
  });
  const viewer = await person("viewer");
  const { token: viewerToken } = await createApiToken(seeded.db, {
    teamId: seeded.teamId,
    userId: viewer,
    name: "team settings",
    role: "viewer",
  });
  expect(await (await rest(viewerToken, "GET")).json()).toMatchObject({ maxConcurrentRuns: null });
  expect((await rest(viewerToken, "PUT", { maxConcurrentRuns: 2 })).status).toBe(403);
  const put = await rest(adminToken, "PUT", { maxConcurrentRuns: 2 });
  expect([put.status, await put.json()]).toEqual([
    200,
    expect.objectContaining({ maxConcurrentRuns: 2 }),
  ]);
  const bad = await rest(adminToken, "PUT", { maxConcurrentRuns: -1 });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain("maxConcurrentRuns");
  const unknown = await rest(adminToken, "PUT", { maxConcurentRuns: 2 });
  expect(unknown.status).toBe(400);
  await rest(adminToken, "PUT", { maxConcurrentRuns: null });
});

it("claims past neither the team's limit nor the operator's, whichever is lower", async () => {
  const saved = await saveWorkflowVersion(seeded.db, {
    teamId: seeded.teamId,
    name: "limited",
    files: {
      "workflow.yaml":
        "name: limited\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n    on_success: done\n  done:\n    type: terminal\n",
    },
  });
  const queued = async () =>
    (
      await createRun(seeded.db, {
        teamId: seeded.teamId,
        workflowId: saved.workflowId,
        workflowVersionId: saved.id,
        lane: "default",
        trigger: "api",
        inputs: {},
        startedById: seeded.adminId,
      })
    ).id;
  const claim = async (operator: number | null) => {
    const got = await claimQueuedRun(
      seeded.db,
      seeded.teamId,
      await queued(),
      "worker-t",
      operator,
    );
    return typeof got === "object" ? "claimed" : got;
  };
  await seeded.db.run.updateMany({
    where: { teamId: seeded.teamId, status: "running" },
    data: { status: "succeeded" },
  });
  // No limit at all: claimed.
  expect(await claim(null)).toBe("claimed");
  // The operator allows 1 and one runs: the next waits, though the team set none.
  expect(await claim(1)).toBe("limited");
  // The team allows 5, the operator 2: two run, the third waits.
  await caller(seeded.adminId).teams.update({ maxConcurrentRuns: 5 });
  expect(await claim(2)).toBe("claimed");
  expect(await claim(2)).toBe("limited");
  // The team's own limit is lower than the operator's: the team's holds.
  await caller(seeded.adminId).teams.update({ maxConcurrentRuns: 2 });
  expect(await claim(10)).toBe("limited");
  expect(await claim(null)).toBe("limited");
  await caller(seeded.adminId).teams.update({ maxConcurrentRuns: null });
  expect(await claim(null)).toBe("claimed");
});

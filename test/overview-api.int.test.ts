/**
 * The overview over tRPC and REST: any member (a viewer too) reads their own team's, in
 * the time zone asked for; a range or a zone it does not take is refused naming the
 * parameter; the OpenAPI document describes the route.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiToken, type Db } from "@switchyard/db";
import { handleRest, openApiDocument } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let viewerId: string;
let token: string;

const get = async (path: string, bearer = token) => {
  const res = await handleRest(
    {
      db,
      queue: () => {
        throw new Error("the overview needs no queue");
      },
      prefix: "unused",
      publish: () => Promise.resolve(0),
    },
    new Request(`http://localhost/api/v1${path}`, {
      headers: { authorization: `Bearer ${bearer}` },
    }),
    path.split("?")[0]!,
  );
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { code: string; message: string };
    },
  };
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  viewerId = await addMember(db, seeded.teamId, {
    email: "viewer@test.local",
    name: "Viewer",
    role: "viewer",
  });
  const version = (await db.workflowVersion.findFirst({
    where: { workflow: { teamId: seeded.teamId } },
  }))!;
  await db.run.create({
    data: {
      teamId: seeded.teamId,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
      status: "succeeded",
    },
  });
  token = (await createApiToken(db, { teamId: seeded.teamId, userId: viewerId, name: "viewer-ci" }))
    .token;
});
afterAll(async () => {
  await seeded?.close();
});

it("gives a viewer the team's overview over tRPC, in the zone asked for", async () => {
  const overview = await dashboardCaller({ db }, viewerId).overview.get({
    days: 7,
    timeZone: "Europe/Berlin",
  });
  expect(overview.range).toMatchObject({ days: 7, timeZone: "Europe/Berlin" });
  expect(overview.perDay).toHaveLength(7);
  expect(overview.runs.total).toBe(1);
  expect(overview.runs.byStatus.succeeded).toBe(1);
  expect(overview.runs.successRate).toBe(1);
});

it("refuses a zone that is not an IANA name over tRPC", async () => {
  await expect(
    dashboardCaller({ db }, viewerId).overview.get({ days: 7, timeZone: "+05:00" }),
  ).rejects.toMatchObject({ code: "BAD_REQUEST" });
});

it("answers GET /overview with the same contract, defaulting to 30 days in UTC", async () => {
  const res = await get("/overview");
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ range: { days: 30, timeZone: "UTC" }, runs: { total: 1 } });
  expect((res.body.perDay as unknown[]).length).toBe(30);
  const berlin = await get("/overview?days=90&tz=Europe%2FBerlin");
  expect(berlin.status).toBe(200);
  expect(berlin.body).toMatchObject({ range: { days: 90, timeZone: "Europe/Berlin" } });
});

it("refuses a range or zone it does not take, naming the parameter", async () => {
  const days = await get("/overview?days=5");
  expect(days.status).toBe(400);
  expect(days.body.error?.code).toBe("BAD_REQUEST");
  expect(days.body.error?.message).toMatch(/^days:/);
  const tz = await get("/overview?tz=Not%2FA_Zone");
  expect(tz.status).toBe(400);
  expect(tz.body.error?.code).toBe("BAD_REQUEST");
  expect(tz.body.error?.message).toMatch(/^tz:/);
  expect((await get("/overview", "")).status).toBe(401);
});

it("is described in the OpenAPI document with its query parameters", () => {
  const op = (
    openApiDocument.paths["/overview"] as Record<
      string,
      { parameters?: { name: string; in: string }[] }
    >
  ).get!;
  expect(op.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(["query:days", "query:tz"]);
});

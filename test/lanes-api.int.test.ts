/**
 * The team's lanes through the dashboard's procedures and the REST API: every member lists
 * them with what uses each; admins add lanes (a name of the lane rule, roles of the team's
 * four), change who may save and start in them and remove them, never `default` or
 * `operator` (whose roles stay owner and admin), nor a lane a workflow, a connector or a
 * secret still names. Members are refused; every change is an audit entry.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createApiToken, saveWorkflowVersion, type Db } from "@switchyard/db";
import { listLanesResponse } from "~/server/contract/lanes.types";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let seeded: SeededDatabase;
let db: Db;
let memberId: string;
const caller = (userId: string) => dashboardCaller({ db, keyring }, userId);
const admin = () => caller(seeded.adminId);
const laneActions = async () =>
  (
    await db.auditLog.findMany({
      where: { teamId: seeded.teamId, targetType: "lane" },
      orderBy: { createdAt: "asc" },
    })
  ).map((a) => `${a.action} ${a.targetId}`);

const echoIn = (name: string, lane: string) => ({
  entry: "workflow.yaml",
  files: {
    "workflow.yaml": `name: ${name}\nlane: ${lane}\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo hi\n`,
  },
});

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
});
afterAll(async () => {
  await seeded?.close();
});

describe("lanes through the dashboard's procedures", () => {
  it("lists the team's lanes to any member, with the built-in ones marked and what uses each", async () => {
    const lanes = await caller(memberId).lanes.list();
    expect(lanes.map((l) => l.name)).toEqual(["default", "operator"]);
    const [byDefault, operator] = lanes;
    expect(byDefault).toMatchObject({
      builtIn: true,
      saveRoles: ["owner", "admin", "member"],
      startRoles: ["owner", "admin", "member"],
    });
    expect(byDefault!.usedBy.workflows.length).toBeGreaterThan(0);
    expect(operator).toMatchObject({
      builtIn: true,
      saveRoles: ["owner", "admin"],
      startRoles: ["owner", "admin"],
      usedBy: { workflows: [], connectors: [], secrets: [] },
    });
  });

  it("refuses members any change", async () => {
    const review = {
      name: "review",
      description: "",
      saveRoles: ["owner", "admin"] as const,
      startRoles: ["member"] as const,
    };
    await expect(
      caller(memberId).lanes.create({
        ...review,
        saveRoles: [...review.saveRoles],
        startRoles: [...review.startRoles],
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller(memberId).lanes.update({
        name: "default",
        description: "mine",
        saveRoles: ["member"],
        startRoles: ["member"],
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(memberId).lanes.remove({ name: "default" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await laneActions()).toEqual([]);
  });

  it("lets an admin add a lane the lane policy then uses, with a valid and unused name", async () => {
    await expect(
      admin().lanes.create({ name: "Review Lane", description: "", saveRoles: [], startRoles: [] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      admin().lanes.create({ name: "9lives", description: "", saveRoles: [], startRoles: [] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const created = await admin().lanes.create({
      name: "review",
      description: "Code review bots",
      saveRoles: ["member", "owner", "admin", "member"],
      startRoles: ["owner", "admin", "member"],
    });
    expect(created).toMatchObject({
      name: "review",
      description: "Code review bots",
      builtIn: false,
      saveRoles: ["owner", "admin", "member"],
    });
    await expect(
      admin().lanes.create({ name: "review", description: "", saveRoles: [], startRoles: [] }),
    ).rejects.toMatchObject({ code: "CONFLICT" });

    // A member may save a workflow in it (its save roles say so), not in operator.
    expect((await caller(memberId).workflows.save(echoIn("reviewer", "review"))).version).toBe(1);
    await expect(
      caller(memberId).workflows.save(echoIn("operating", "operator")),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(
      (await caller(memberId).lanes.list()).find((l) => l.name === "review")!.usedBy.workflows,
    ).toEqual(["reviewer"]);
  });

  it("lets an admin change who may save and start in a lane, but keeps operator to owners and admins", async () => {
    const changed = await admin().lanes.update({
      name: "review",
      description: "Review bots",
      saveRoles: ["owner", "admin"],
      startRoles: ["owner", "admin", "member", "viewer"],
    });
    expect(changed).toMatchObject({
      description: "Review bots",
      saveRoles: ["owner", "admin"],
      startRoles: ["owner", "admin", "member", "viewer"],
    });
    await expect(
      caller(memberId).workflows.save(echoIn("reviewer", "review")),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    const opened = admin().lanes.update({
      name: "operator",
      description: "",
      saveRoles: ["owner", "admin", "member"],
      startRoles: ["owner", "admin"],
    });
    await expect(opened).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { location: { path: "saveRoles" } },
    });
    const narrowed = admin().lanes.update({
      name: "operator",
      description: "",
      saveRoles: ["owner", "admin"],
      startRoles: ["owner"],
    });
    await expect(narrowed).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { location: { path: "startRoles" } },
    });
    expect(
      await admin().lanes.update({
        name: "operator",
        description: "Admins only",
        saveRoles: ["admin", "owner"],
        startRoles: ["owner", "admin"],
      }),
    ).toMatchObject({
      description: "Admins only",
      saveRoles: ["owner", "admin"],
    });
    await expect(
      admin().lanes.update({ name: "ghost", description: "", saveRoles: [], startRoles: [] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never removes default or operator, nor a lane a workflow, a connector or a secret names", async () => {
    await expect(admin().lanes.remove({ name: "default" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(admin().lanes.remove({ name: "operator" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(admin().lanes.remove({ name: "ghost" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    const usedByWorkflow = admin().lanes.remove({ name: "review" });
    await expect(usedByWorkflow).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("reviewer") as string,
    });
    // Saved again in another lane, the workflow lets go of it.
    await saveWorkflowVersion(db, {
      teamId: seeded.teamId,
      name: "reviewer",
      lane: "default",
      files: echoIn("reviewer", "default").files,
    });

    await admin().connectors.create({
      definition: {
        id: "files",
        name: "Files",
        transport: "stdio",
        command: "node",
        args: ["/opt/connectors/server.js"],
        lanes: ["review"],
      },
    });
    await expect(admin().lanes.remove({ name: "review" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("files") as string,
    });
    await admin().connectors.update({
      id: "files",
      definition: {
        name: "Files",
        transport: "stdio",
        command: "node",
        args: ["/opt/connectors/server.js"],
        lanes: ["*"],
        tool_allow: { review: { deny: ["delete_*"] } },
      },
    });
    expect(
      (await admin().lanes.list()).find((l) => l.name === "review")!.usedBy.connectors,
    ).toEqual(["files"]);
    await expect(admin().lanes.remove({ name: "review" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await admin().connectors.update({
      id: "files",
      definition: {
        name: "Files",
        transport: "stdio",
        command: "node",
        args: ["/opt/connectors/server.js"],
        lanes: ["*"],
      },
    });

    await admin().variables.set({
      name: "REVIEW_TOKEN",
      value: "review-secret-value",
      secret: true,
      lanes: ["review"],
    });
    await expect(admin().lanes.remove({ name: "review" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("REVIEW_TOKEN") as string,
    });
    await admin().variables.setLanes({ name: "REVIEW_TOKEN", lanes: ["operator"] });

    expect(await admin().lanes.remove({ name: "review" })).toEqual({ name: "review" });
    expect((await admin().lanes.list()).map((l) => l.name)).toEqual(["default", "operator"]);
    expect(await laneActions()).toEqual([
      "lane.create review",
      "lane.update review",
      "lane.update operator",
      "lane.remove review",
    ]);
    const entry = await db.auditLog.findFirst({
      where: { teamId: seeded.teamId, action: "lane.create" },
    });
    expect(entry).toMatchObject({
      actorUserId: seeded.adminId,
      metadata: { saveRoles: "owner,admin,member", startRoles: "owner,admin,member" },
    });
  });
});

describe("lanes through the REST API", () => {
  const rest = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await handleRest(
      {
        db,
        queue: () => {
          throw new Error("no queue");
        },
        prefix: "t",
        publish: () => Promise.resolve(0),
        keyring: () => keyring,
      },
      new Request(`http://localhost/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
      path,
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("answers the same operations with the same contract and refuses a member's token", async () => {
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "ci",
    });
    const member = (
      await createApiToken(db, { teamId: seeded.teamId, userId: memberId, name: "laptop" })
    ).token;

    const created = await rest(token, "POST", "/lanes", {
      name: "nightly",
      saveRoles: ["owner", "admin"],
      startRoles: ["owner", "admin", "member"],
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: "nightly", description: "", builtIn: false },
    });
    expect(
      (await rest(token, "POST", "/lanes", { name: "Bad Name", saveRoles: [], startRoles: [] }))
        .body,
    ).toMatchObject({ error: { code: "BAD_REQUEST" } });
    const updated = await rest(token, "PUT", "/lanes/nightly", {
      description: "Nightly jobs",
      saveRoles: ["owner"],
      startRoles: ["owner"],
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { description: "Nightly jobs", saveRoles: ["owner"] },
    });

    const listed = await rest(member, "GET", "/lanes");
    expect(listLanesResponse.parse(listed.body).lanes.map((l) => l.name)).toEqual([
      "default",
      "nightly",
      "operator",
    ]);
    expect(
      (await rest(member, "POST", "/lanes", { name: "mine", saveRoles: [], startRoles: [] }))
        .status,
    ).toBe(403);
    expect((await rest(member, "DELETE", "/lanes/nightly")).status).toBe(403);

    expect(await rest(token, "DELETE", "/lanes/operator")).toMatchObject({
      status: 409,
      body: { error: { code: "CONFLICT" } },
    });
    expect(await rest(token, "DELETE", "/lanes/nightly")).toMatchObject({
      status: 200,
      body: { name: "nightly" },
    });
  });
});

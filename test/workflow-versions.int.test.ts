/**
 * A workflow's versions through the dashboard's procedures and the REST API: who saved
 * each, one version's files and graph, the diff between two, running a chosen version,
 * inputs checked against the declaration at start, and archiving.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createApiToken, getRun } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller, type RestCall } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";
import { randomPrefix } from "./helpers/worker-process";

let seeded: SeededDatabase;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let rest: RestCall;

const v1 = `name: versioned
inputs:
  - name: target
    type: string
    required: true
    validation:
      enum: [staging, production]
states:
  initial: build
  build:
    type: step
    command: echo build {{.inputs.target}}
    on_success: done
  done:
    type: terminal
`;
const v2 = v1
  .replace("echo build", "echo deploy")
  .replace(
    "on_success: done",
    "on_success: check\n  check:\n    type: step\n    command: echo check\n    on_success: done",
  );

beforeAll(async () => {
  seeded = await openSeededDatabase();
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!);
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  const token = (
    await createApiToken(seeded.db, { teamId: seeded.teamId, userId: seeded.adminId, name: "ci" })
  ).token;
  rest = restCaller({ db: seeded.db, queue, redis, prefix }, () => token);
});
afterAll(async () => {
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  redis.disconnect();
  await seeded.close();
});

describe("workflow versions", () => {
  let workflowId: string;
  const admin = () =>
    dashboardCaller({ db: seeded.db, queue, redis, prefix }, seeded.adminId, seeded.teamId);

  beforeAll(async () => {
    const other = await addMember(seeded.db, seeded.teamId, {
      email: "second@test.local",
      name: "Second Saver",
      role: "member",
    });
    workflowId = (
      await admin().workflows.save({ entry: "workflow.yaml", files: { "workflow.yaml": v1 } })
    ).workflowId;
    await dashboardCaller(
      { db: seeded.db, queue, redis, prefix },
      other,
      seeded.teamId,
    ).workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": v2, "notes.md": "new file\n" },
    });
  });

  it("lists versions newest first with who saved each", async () => {
    const { versions } = await admin().workflows.versions({ id: workflowId });
    expect(versions.map((v) => [v.number, v.current, v.createdBy?.name])).toEqual([
      [2, true, "Second Saver"],
      [1, false, expect.any(String)],
    ]);
    expect(versions[1]!.createdBy?.email).toBe("admin@test.local");
  });

  it("reads one version with its files, graph and input declaration", async () => {
    const v = await admin().workflows.version({ id: workflowId, number: 1 });
    expect(v.files["workflow.yaml"]).toBe(v1);
    expect(v.graph?.nodes.map((n) => n.id)).toEqual(["build", "done"]);
    expect(v.inputs).toHaveLength(1);
    expect(v.inputs[0]).toMatchObject({
      name: "target",
      type: "string",
      required: true,
      validation: { enum: ["staging", "production"] },
    });
    const current = await admin().workflows.get({ id: workflowId });
    expect(current.graph?.edges).toContainEqual({ from: "build", to: "check", kind: "success" });
  });

  it("diffs two versions file by file, added and removed lines marked", async () => {
    const d = await admin().workflows.diff({ id: workflowId, from: 1, to: 2 });
    const yaml = d.files.find((f) => f.path === "workflow.yaml")!;
    expect(yaml.change).toBe("changed");
    expect(yaml.lines).toContainEqual(
      expect.objectContaining({ kind: "del", text: "    command: echo build {{.inputs.target}}" }),
    );
    expect(yaml.lines).toContainEqual(
      expect.objectContaining({ kind: "add", text: "    command: echo deploy {{.inputs.target}}" }),
    );
    expect(yaml.patch).toContain("-    command: echo build");
    expect(d.files.find((f) => f.path === "notes.md")).toMatchObject({ change: "added" });
  });

  it("serves the same over REST", async () => {
    const list = await rest("GET", `/workflows/${workflowId}/versions`);
    expect(list.status).toBe(200);
    expect((list.body.versions as { number: number }[]).map((v) => v.number)).toEqual([2, 1]);
    const one = await rest("GET", `/workflows/${workflowId}/versions/1`);
    expect(one.status).toBe(200);
    expect((one.body.files as Record<string, string>)["workflow.yaml"]).toBe(v1);
    expect((await rest("GET", `/workflows/${workflowId}/versions/9`)).status).toBe(404);
    const diff = await rest("GET", `/workflows/${workflowId}/diff?from=1&to=2`);
    expect(diff.status).toBe(200);
    expect((diff.body.files as { path: string }[]).map((f) => f.path)).toEqual([
      "notes.md",
      "workflow.yaml",
    ]);
    const latest = await rest("GET", `/workflows/${workflowId}/diff`);
    expect([latest.body.from, latest.body.to]).toEqual([1, 2]);
    const bad = await rest("GET", `/workflows/${workflowId}/diff?from=x&to=2`);
    expect(bad.status).toBe(400);
    const validated = await rest("POST", "/workflows/validate", {
      body: { entry: "workflow.yaml", files: { "workflow.yaml": v2 } },
    });
    expect((validated.body.graph as { nodes: unknown[] }).nodes).toHaveLength(3);
  });

  it("runs a chosen version, and refuses inputs the declaration does not allow, naming the input", async () => {
    const { versions } = await admin().workflows.versions({ id: workflowId });
    const first = versions.find((v) => v.number === 1)!;
    const run = await admin().runs.start({
      workflowId,
      versionId: first.id,
      inputs: { target: "staging" },
    });
    expect((await getRun(seeded.db, seeded.teamId, run.id))?.workflowVersionId).toBe(first.id);
    await expect(admin().runs.start({ workflowId, inputs: { target: "qa" } })).rejects.toThrow(
      /inputs\.target/,
    );
    const viaRest = await rest("POST", `/workflows/${workflowId}/runs`, { body: { inputs: {} } });
    expect(viaRest.status).toBe(400);
    expect(viaRest.body.error?.code).toBe("USER.INPUT.VALIDATION_FAILED");
    expect(viaRest.body.error?.message).toContain("inputs.target");
  });

  it("archives: viewers may not; then it leaves the list and cannot start", async () => {
    const viewer = await addMember(seeded.db, seeded.teamId, {
      email: "viewer@test.local",
      name: "V",
      role: "viewer",
    });
    await expect(
      dashboardCaller({ db: seeded.db }, viewer, seeded.teamId).workflows.archive({
        id: workflowId,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const archived = await rest("POST", `/workflows/${workflowId}/archive`);
    expect(archived.status).toBe(200);
    expect((await admin().workflows.list()).map((w) => w.id)).not.toContain(workflowId);
    await expect(
      admin().runs.start({ workflowId, inputs: { target: "staging" } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

/**
 * The team's skills library end to end, under the real worker with an openai_compatible agent
 * step against the scripted model: a `skills:` name the bundle lacks is the team's skill,
 * pinned into the version at save (so the model reads the text current then, until the
 * workflow is saved again), a skill in the bundle wins over the library's, a name neither has
 * is refused at its line naming the library, and another team can neither read nor use it.
 * The REST surface serves the same operations, and a SKILL.md is held to agentskills.io.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createApiToken } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";
import { buildSwitchyardCli } from "./helpers/worker-process";

const MODEL_KEY = "sk-model-key-5c2e8a1f9d3b7046";

let stack: RunStack;
let model: ScriptedModel;
let otherTeam: string;
let otherUser: string;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const admin = () => dashboardCaller({ ...stack, keyring }, stack.adminId);
const other = () => dashboardCaller({ ...stack, keyring }, otherUser, otherTeam);

const skill = (body: string) =>
  `---\nname: go-style\ndescription: Go conventions of the team\n---\n\n${body}\n`;
const workflow = (name: string, marker: string, skills: string[]) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, marker, "done").replace(
  "    timeout: 2m\n",
  `    timeout: 2m\n    skills:\n${skills.map((s) => `      - ${s}\n`).join("")}`,
)}  done:
    type: terminal
    status: success
`;
const files = (yaml: string, extra: Record<string, string> = {}) => ({
  entry: "workflow.yaml",
  files: { "workflow.yaml": yaml, ...extra },
});

/** What the model was sent as the user message of the last request with `marker`. */
const userMessage = (marker: string) => {
  const bodies = model.requests
    .map((r) => r.body as { messages: { role: string; content: unknown }[] })
    .filter((b) => JSON.stringify(b).includes(marker));
  return bodies.at(-1)?.messages.find((m) => m.role === "user")?.content;
};
const runOnce = async (workflowId: string, marker: string) => {
  const { id } = await admin().runs.start({ workflowId });
  const run = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
  const trace = JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorMessage]));
  expect(run.status, trace).toBe("succeeded");
  return userMessage(marker);
};
const block = (dir: string, body: string) =>
  [
    '<skill_content name="go-style">',
    body,
    "",
    `Skill directory: ${dir}`,
    "Relative paths in this skill are relative to the skill directory.",
    "</skill_content>",
  ].join("\n");
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return (error as { cause?: { code?: string; details?: { diagnostics: unknown[] } } }).cause;
};

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: { turns: [], rules: [{ match: { messagesContain: "LIB-" }, text: "done" }] },
  });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
  });
  await admin().variables.set({
    name: "MODEL_KEY",
    value: MODEL_KEY,
    secret: true,
    lanes: ["default"],
  });
  otherTeam = (await stack.db.team.create({ data: { name: "Other", slug: "other-team" } })).id;
  otherUser = await addMember(stack.db, otherTeam, {
    email: "other@test.local",
    name: "Other",
    role: "admin",
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

describe("skills library", () => {
  it("sends the model the library skill pinned at save, until the workflow is saved again", async () => {
    expect(
      await admin().skills.save({ name: "go-style", content: skill("Use gofmt v1.") }),
    ).toEqual({ name: "go-style", version: 1, created: true, warnings: [] });
    const saved = await admin().workflows.save(files(workflow("lib", "LIB-PIN", ["go-style"])));
    expect(await runOnce(saved.workflowId, "LIB-PIN")).toBe(
      `${block(".switchyard/skills/go-style", "Use gofmt v1.")}\n\nLIB-PIN`,
    );

    // A new library version changes nothing for the saved version...
    await admin().skills.save({ name: "go-style", content: skill("Use gofmt v2.") });
    expect(await runOnce(saved.workflowId, "LIB-PIN")).toContain("Use gofmt v1.");
    const page = await admin().workflows.get({ id: saved.workflowId });
    expect(page.skills).toEqual([
      { name: "go-style", path: ".switchyard/skills/go-style/SKILL.md", version: 1 },
    ]);

    // ...until it is saved again, as the editor does with the files it read.
    await admin().workflows.save({ entry: page.entry, files: page.files });
    expect(await runOnce(saved.workflowId, "LIB-PIN")).toContain("Use gofmt v2.");
    expect((await admin().workflows.get({ id: saved.workflowId })).skills[0]?.version).toBe(2);

    // Deleting the skill leaves the saved version, and a save of it, with the copy it had.
    await admin().skills.delete({ name: "go-style" });
    const kept = await admin().workflows.get({ id: saved.workflowId });
    await admin().workflows.save({ entry: kept.entry, files: kept.files });
    expect(await runOnce(saved.workflowId, "LIB-PIN")).toContain("Use gofmt v2.");
    expect((await admin().workflows.get({ id: saved.workflowId })).skills).toEqual([
      { name: "go-style", path: ".switchyard/skills/go-style/SKILL.md", version: null },
    ]);
  }, 300_000);

  it("prefers a skill the bundle holds to the library's", async () => {
    await admin().skills.save({ name: "go-style", content: skill("From the library.") });
    const saved = await admin().workflows.save(
      files(workflow("own", "LIB-OWN", ["go-style"]), {
        ".awf/skills/go-style/SKILL.md": "Bundled.\n",
      }),
    );
    expect(await runOnce(saved.workflowId, "LIB-OWN")).toBe(
      `${block(".awf/skills/go-style", "Bundled.")}\n\nLIB-OWN`,
    );
    expect((await admin().workflows.get({ id: saved.workflowId })).skills).toEqual([]);
  }, 180_000);

  it("refuses a name neither the bundle nor the library has, at its line, naming the library", async () => {
    const refused = await refusal(
      admin().workflows.save(files(workflow("missing", "LIB-NONE", ["go-style", "nope"]))),
    );
    expect(refused?.code).toBe("WORKFLOW.VALIDATION_FAILED");
    expect(refused?.details?.diagnostics).toEqual([
      expect.objectContaining({
        code: "USER.SKILL.NOT_FOUND",
        line: 15,
        column: 9,
        message: expect.stringMatching(
          /skill 'nope' not found .* nor in the team's skills library/,
        ) as unknown,
      }),
    ]);
  });

  it("warns at the step's entry of a library skill with nothing to inject, as AWF does", async () => {
    const saved = await admin().skills.save({
      name: "hollow",
      content: "---\nname: hollow\ndescription: Nothing yet\n---\n",
    });
    expect(saved.warnings.map((w) => w.code)).toEqual(["USER.SKILL.EMPTY_CONTENT"]);
    const checked = await admin().workflows.validate(
      files(workflow("hollow", "LIB-HOLLOW", ["go-style", "hollow"])),
    );
    expect(checked.errors).toEqual([]);
    expect(checked.warnings.map((w) => [w.code, w.line])).toEqual([
      ["USER.SKILL.EMPTY_CONTENT", 15],
    ]);
  });

  it("keeps another team from reading or using the skill", async () => {
    expect(await other().skills.list()).toEqual([]);
    await expect(other().skills.get({ name: "go-style" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const refused = await refusal(
      other().workflows.save(files(workflow("theirs", "LIB-OTHER", ["go-style"]))),
    );
    expect(refused?.details?.diagnostics).toEqual([
      expect.objectContaining({ code: "USER.SKILL.NOT_FOUND", line: 14 }),
    ]);
    await expect(other().skills.delete({ name: "go-style" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("skills API", () => {
  it("saves, lists, reads versions of and deletes skills over REST, checking the format", async () => {
    const { token } = await createApiToken(stack.db, {
      teamId: stack.teamId,
      userId: stack.adminId,
      name: "skills",
    });
    const call = restCaller(stack, () => token);
    const text = (body: string) => `---\nname: rest-skill\ndescription: Over REST\n---\n${body}\n`;
    expect(
      (await call("PUT", "/skills/rest-skill", { body: { content: text("one") } })).body,
    ).toEqual({
      name: "rest-skill",
      version: 1,
      created: true,
      warnings: [],
    });
    await call("PUT", "/skills/rest-skill", { body: { content: text("two") } });
    const list = await call("GET", "/skills");
    expect(list.status).toBe(200);
    expect(
      (list.body.skills as { name: string; version: number; description: string }[]).find(
        (s) => s.name === "rest-skill",
      ),
    ).toMatchObject({
      version: 2,
      description: "Over REST",
    });
    const first = await call("GET", "/skills/rest-skill?version=1");
    expect(first.body).toMatchObject({ content: text("one"), shownVersion: 1, version: 2 });
    expect((first.body.versions as { number: number }[]).map((v) => v.number)).toEqual([2, 1]);

    const bad = await call("PUT", "/skills/rest-skill", {
      body: { content: "---\nname: other\ndescription: x\nmodel: big\n---\nbody\n" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.details?.diagnostics?.map((d) => [d.code, d.line])).toEqual([
      ["USER.SKILL.INVALID_FRONTMATTER", 2],
      ["USER.SKILL.INVALID_FRONTMATTER", 4],
    ]);
    const checked = await call("POST", "/skills/rest-skill/validate", {
      body: { content: "---\nname: rest-skill\ndescription: x\n---\n" },
    });
    expect(checked.body).toMatchObject({
      ok: true,
      errors: [],
      warnings: [expect.objectContaining({ code: "USER.SKILL.EMPTY_CONTENT" })],
    });
    const badName = await call("PUT", "/skills/Bad_Name", { body: { content: text("x") } });
    expect([badName.status, badName.body.error?.code]).toEqual([400, "BAD_REQUEST"]);

    expect((await call("DELETE", "/skills/rest-skill")).status).toBe(200);
    expect((await call("GET", "/skills/rest-skill")).status).toBe(404);
    const audit = await stack.db.auditLog.findMany({
      where: { teamId: stack.teamId, action: { startsWith: "skill." }, targetType: "skill" },
      select: { action: true },
    });
    expect(audit.map((a) => a.action)).toContain("skill.delete");
  });

  it("lets a viewer read skills but not save or delete them", async () => {
    const viewer = await addMember(stack.db, stack.teamId, {
      email: "viewer@test.local",
      name: "Viewer",
      role: "viewer",
    });
    const asViewer = dashboardCaller(stack, viewer, stack.teamId);
    expect((await asViewer.skills.list()).map((s) => s.name)).toContain("go-style");
    await expect(
      asViewer.skills.save({ name: "go-style", content: skill("x") }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asViewer.skills.delete({ name: "go-style" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});

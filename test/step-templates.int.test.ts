/**
 * Team step templates end to end: a workflow saved with `use_template` runs in the real
 * worker with the template's state, the version pins the template's text (editing the
 * template later changes nothing until the workflow is saved again), and the rules for
 * who may read, save and delete templates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, succeededOutput, type RunStack } from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";

let stack: RunStack | undefined;
const caller = () => dashboardCaller(stack!, stack!.adminId);

const template = (word: string) => `name: say
parameters:
  - name: text
    required: true
  - name: suffix
    default: "${word}"
states:
  say:
    type: step
    command: echo "{{parameters.text}} {{parameters.suffix}}"
`;

const workflow = `name: templated
states:
  initial: greet
  greet:
    use_template: say
    parameters:
      text: hello
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`;

const runOnce = (workflowId: string, versionId?: string) =>
  succeededOutput(caller, "greet", workflowId, versionId);

beforeAll(async () => {
  stack = await openRunStack();
}, 120_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
});

describe("step templates", () => {
  it("refuses a workflow whose template the team does not have, at the using line", async () => {
    await expect(
      caller().workflows.save({ entry: "workflow.yaml", files: { "workflow.yaml": workflow } }),
    ).rejects.toMatchObject({
      cause: {
        details: {
          diagnostics: [
            expect.objectContaining({
              code: "WORKFLOW.TEMPLATE.NOT_FOUND",
              line: 5,
              path: "states.greet.use_template",
            }),
          ],
        },
      },
    });
  });

  it("runs a saved workflow with the template version it pinned, until it is saved again", async () => {
    expect(
      await caller().templates.save({ name: "say", content: template("v1"), description: "" }),
    ).toEqual({ name: "say", version: 1, created: true });
    const saved = await caller().workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": workflow },
    });
    expect(await runOnce(saved.workflowId)).toBe("hello v1");

    // The template changes; the saved version keeps what it pinned.
    expect(
      (await caller().templates.save({ name: "say", content: template("v2"), description: "" }))
        .version,
    ).toBe(2);
    expect(await runOnce(saved.workflowId)).toBe("hello v1");
    const page = await caller().workflows.get({ id: saved.workflowId });
    expect(page.templates).toEqual([{ name: "say", path: ".awf/templates/say.yaml", version: 1 }]);
    expect(page.files[".awf/templates/say.yaml"]).toBe(template("v1"));

    // Saving it again, as the editor does with the files it read, pins the current version.
    const again = await caller().workflows.save({ entry: "workflow.yaml", files: page.files });
    expect(again.version).toBe(saved.version + 1);
    expect(await runOnce(saved.workflowId)).toBe("hello v2");
    expect((await caller().workflows.get({ id: saved.workflowId })).templates).toEqual([
      { name: "say", path: ".awf/templates/say.yaml", version: 2 },
    ]);
    // The first version still runs as it was saved.
    const first = (await caller().workflows.versions({ id: saved.workflowId })).versions.find(
      (v) => v.number === saved.version,
    )!;
    expect(await runOnce(saved.workflowId, first.id)).toBe("hello v1");

    // Deleting the template leaves saved versions and their re-saves with their copy.
    await caller().templates.delete({ name: "say" });
    expect(await runOnce(saved.workflowId)).toBe("hello v2");
  }, 180_000);

  it("validates a template as AWF reads it, and lists it with its parameters", async () => {
    const bad = await caller().templates.validate({
      name: "broken",
      description: "",
      content:
        "name: broken\nstates:\n  broken:\n    type: step\n    command: echo {{parameters.nope}}\n",
    });
    expect(bad.ok).toBe(false);
    expect(bad.errors[0]).toMatchObject({ code: "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER", line: 5 });
    await expect(
      caller().templates.save({ name: "other", content: template("x"), description: "" }),
    ).rejects.toThrow(/named "say" but saved as "other"/);
    await caller().templates.save({ name: "say", content: template("v3"), description: "says" });
    const list = await caller().templates.list();
    expect(list.map((t) => [t.name, t.version, t.parameters.map((p) => p.name)])).toEqual([
      ["say", 1, ["text", "suffix"]],
    ]);
  });

  it("lets a viewer read templates but not save or delete them", async () => {
    const viewer = await addMember(stack!.db, stack!.teamId, {
      email: "viewer@test.local",
      name: "Viewer",
      role: "viewer",
    });
    const asViewer = dashboardCaller(stack!, viewer, stack!.teamId);
    expect((await asViewer.templates.list()).length).toBe(1);
    await expect(
      asViewer.templates.save({ name: "say", content: template("x"), description: "" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asViewer.templates.delete({ name: "say" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const audit = await stack!.db.auditLog.findMany({
      where: { teamId: stack!.teamId, action: { startsWith: "template." } },
      select: { action: true },
    });
    expect(audit.map((a) => a.action).sort()).toEqual([
      "template.delete",
      "template.save",
      "template.save",
      "template.save",
    ]);
  });
});

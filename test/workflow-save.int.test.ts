/**
 * Saving workflows through the dashboard's procedures: whole-bundle validation in the
 * team's context (referenced files, sub-workflows by name, lanes), content-addressed
 * versions, and nothing stored when anything is wrong.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@switchyard/core/errors";
import { createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import type * as ParseModule from "../packages/core/src/workflow/parse/parse-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";

/** The files parseWorkflow was asked to parse, in order (it parses them as it always does). */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock("../packages/core/src/workflow/parse/parse-workflow", async (actual) => {
  const real = await actual<typeof ParseModule>();
  return {
    ...real,
    parseWorkflow: (...args: Parameters<typeof real.parseWorkflow>) => {
      parsed.push(args[1] ?? "");
      return real.parseWorkflow(...args);
    },
  };
});

let database: TestDatabase;
let db: Db;
let adminId: string;
let teamId: string;

const caller = (userId = adminId) => dashboardCaller({ db }, userId);

const builder = (name: string, extra = "") => `name: ${name}
description: Builds things.
${extra}states:
  initial: build
  build:
    type: step
    script_file: scripts/build.sh
    on_success: done
  done:
    type: terminal
    status: success
`;

type Diagnostics = {
  diagnostics: { code: string; line?: number; path?: string; message: string }[];
};

/** The AppError a procedure failed with (tRPC keeps it as the cause). */
const details = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: unknown } | undefined;
  const app = error?.cause instanceof AppError ? error.cause : undefined;
  return app && { appCode: app.code, details: app.details as Diagnostics | undefined };
};

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe("workflows.save", () => {
  it("parses the saved workflow once: template pinning, skill pinning and validation share it", async () => {
    await caller().templates.save({
      name: "say",
      description: "",
      content:
        'name: say\nparameters:\n  - name: text\n    required: true\nstates:\n  say:\n    type: step\n    command: echo "{{parameters.text}}"\n',
    });
    parsed.length = 0;
    await caller().workflows.save({
      entry: "flow.yaml",
      files: {
        "flow.yaml":
          "name: parsed-once\nstates:\n  initial: hello\n  hello:\n    use_template: say\n    parameters:\n      text: hi\n    on_success: done\n  done:\n    type: terminal\n",
      },
    });
    expect((await caller().workflows.list()).map((w) => w.name)).toContain("parsed-once");
    expect(parsed.filter((file) => file === "flow.yaml")).toHaveLength(1);
  });

  it("stores a valid bundle as a version, and a changed file as the next one", async () => {
    const files = {
      "workflow.yaml": builder("builder"),
      "scripts/build.sh": "#!/bin/sh\necho building\n",
    };
    const first = await caller().workflows.save({ entry: "workflow.yaml", files });
    expect(first.version).toBe(1);
    const again = await caller().workflows.save({ entry: "workflow.yaml", files });
    expect(again).toMatchObject({ version: 1, bundleHash: first.bundleHash });
    const changed = await caller().workflows.save({
      entry: "workflow.yaml",
      files: { ...files, "scripts/build.sh": "#!/bin/sh\necho v2\n" },
    });
    expect(changed.version).toBe(2);
    expect(changed.bundleHash).not.toBe(first.bundleHash);

    const loaded = await caller().workflows.get({ id: first.workflowId });
    expect(loaded.files["scripts/build.sh"]).toBe("#!/bin/sh\necho v2\n");
    expect(loaded).toMatchObject({
      name: "builder",
      version: 2,
      lane: "default",
      entry: "workflow.yaml",
    });
    // the unchanged YAML is stored once, by its hash
    expect(await db.bundleBlob.count({ where: { teamId } })).toBeGreaterThanOrEqual(3);
  });

  it("refuses a bundle missing a referenced file, saying where, and stores nothing", async () => {
    const before = await db.workflowVersion.count();
    const data = await details(
      caller().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": builder("no-script") },
      }),
    );
    expect(data?.appCode).toBe("WORKFLOW.VALIDATION_FAILED");
    expect(data?.details?.diagnostics).toEqual([
      expect.objectContaining({
        code: "USER.INPUT.MISSING_FILE",
        file: "workflow.yaml",
        line: 6,
        path: "states.build.script_file",
      }),
    ]);
    expect(await db.workflowVersion.count()).toBe(before);
    expect(await db.workflow.count({ where: { name: "no-script" } })).toBe(0);
  });

  it("refuses a bundle whose literal readFile names a missing file, in the YAML or in a script", async () => {
    const yaml = builder("reader", "env: { NOTES: '{{readFile \"notes.md\"}}' }\n");
    const script = '#!/bin/sh\necho "{{readFile "data/list.txt"}}"\n';
    const data = await details(
      caller().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": yaml, "scripts/build.sh": script },
      }),
    );
    expect(data?.appCode).toBe("WORKFLOW.VALIDATION_FAILED");
    expect(data?.details?.diagnostics).toEqual([
      expect.objectContaining({
        code: "USER.INPUT.MISSING_FILE",
        path: "env.NOTES",
        message: expect.stringContaining('"notes.md"') as unknown,
      }),
      expect.objectContaining({
        code: "USER.INPUT.MISSING_FILE",
        path: "states.build.script_file",
        message: expect.stringContaining('"data/list.txt" (read by scripts/build.sh)') as unknown,
      }),
    ]);
    const saved = await caller().workflows.save({
      entry: "workflow.yaml",
      files: {
        "workflow.yaml": yaml,
        "scripts/build.sh": script,
        "notes.md": "n",
        "data/list.txt": "a,b",
      },
    });
    expect(saved.version).toBe(1);
  });

  it("reports every problem at once, with lines and suggestions", async () => {
    const yaml = `name: sloppy
states:
  initial: a
  a:
    type: step
    comand: echo hi
    on_success: nowhere
`;
    const result = await caller().workflows.validate({
      entry: "workflow.yaml",
      files: { "workflow.yaml": yaml },
    });
    expect(result.ok).toBe(false);
    const byPath = new Map(result.errors.map((e) => [e.path, e]));
    expect(byPath.get("states.a.comand")).toMatchObject({ line: 6 });
    expect(byPath.get("states.a.comand")?.message).toContain("command");
    expect(byPath.get("states.a.on_success")).toMatchObject({ line: 7 });
  });

  it("resolves call_workflow among the team's workflows", async () => {
    const parent = `name: parent
states:
  initial: call
  call:
    type: call_workflow
    workflow: helper
    on_success: done
  done:
    type: terminal
    status: success
`;
    const before = await caller().workflows.validate({
      entry: "workflow.yaml",
      files: { "workflow.yaml": parent },
    });
    expect(before.errors.map((e) => e.code)).toContain("WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW");
    await caller().workflows.save({
      entry: "workflow.yaml",
      files: {
        "workflow.yaml":
          "name: helper\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo help\n",
      },
    });
    const after = await caller().workflows.validate({
      entry: "workflow.yaml",
      files: { "workflow.yaml": parent },
    });
    expect(after).toMatchObject({ ok: true, errors: [] });
  });

  it("checks the lane: unknown lanes are refused, and members may not save in operator", async () => {
    const files = (lane: string) => ({
      "workflow.yaml": builder(`in-${lane}`, `lane: ${lane}\n`),
      "scripts/build.sh": "echo\n",
    });
    const unknown = await details(
      caller().workflows.save({ entry: "workflow.yaml", files: files("nowhere") }),
    );
    expect(unknown?.appCode).toBe("USER.INPUT.VALIDATION_FAILED");

    const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
    await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
    const denied = await details(
      caller(member.id).workflows.save({ entry: "workflow.yaml", files: files("operator") }),
    );
    expect(denied?.appCode).toBe("FORBIDDEN");
    expect(
      (await caller().workflows.save({ entry: "workflow.yaml", files: files("operator") })).version,
    ).toBe(1);
    // nor move an operator workflow out of its lane by saving it again elsewhere
    const moved = {
      "workflow.yaml": builder("in-operator", "lane: default\n"),
      "scripts/build.sh": "echo mine\n",
    };
    expect(
      (await details(caller(member.id).workflows.save({ entry: "workflow.yaml", files: moved })))
        ?.appCode,
    ).toBe("FORBIDDEN");
    expect(await db.workflow.findFirst({ where: { teamId, name: "in-operator" } })).toMatchObject({
      lane: "operator",
    });
  });

  it("resolves referenced files relative to the workflow file, as the worker does", async () => {
    const yaml = builder("nested").replace(
      "script_file: scripts/build.sh",
      "script_file: ./../shared/build.sh",
    );
    const result = await caller().workflows.validate({
      entry: "flows/workflow.yaml",
      files: { "flows/workflow.yaml": yaml, "shared/build.sh": "echo\n" },
    });
    expect(result).toMatchObject({ ok: true, errors: [] });
  });

  it("refuses bundle paths that climb out of the bundle", async () => {
    const data = await details(
      caller().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": builder("climber"), "../scripts/build.sh": "x" },
      }),
    );
    expect(data?.appCode).toBe("USER.INPUT.VALIDATION_FAILED");
  });

  it("counts the templates it pins in the bundle's limits, and stores nothing over them", async () => {
    const template = (name: string) => `name: ${name}
states:
  ${name}:
    type: step
    command: echo hi
`;
    for (const name of ["say", "shout"])
      await caller().templates.save({ name, content: template(name), description: "" });
    const uses = `name: pinner
states:
  initial: a
  a:
    use_template: say
    on_success: b
  b:
    use_template: shout
    on_success: done
  done:
    type: terminal
`;
    // 50 files as sent, the most a bundle holds: the two templates it pins make 52.
    const files: Record<string, string> = { "workflow.yaml": uses };
    for (let i = 1; i < 50; i++) files[`notes/${i}.txt`] = "x";
    const refused = await caller()
      .workflows.save({ entry: "workflow.yaml", files })
      .then(
        () => undefined,
        (e: unknown) => (e as { cause?: unknown }).cause,
      );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "USER.INPUT.VALIDATION_FAILED" });
    expect((refused as AppError).message).toContain(
      "52 files with the templates and skills it uses",
    );
    expect((await caller().workflows.list()).map((w) => w.name)).not.toContain("pinner");
  });
});

/**
 * Which tool calls of a lane's runs wait for a person's approval, through the dashboard's
 * procedures and the REST API: admins set a lane's rules, each checked (a bad one is
 * USER.APPROVAL.RULE_INVALID naming its index and field), members only read them; each change
 * is an audit entry. Saving a workflow whose agent step leaves its built-ins to the CLI
 * (`intercept_builtins: false`) is refused where its own rules or its lane's hold calls of a
 * built-in, at the file, line and field; the worker reads a lane's rules with
 * laneApprovalRules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@switchyard/core/errors";
import { stepApprovalRules } from "@switchyard/core/governance";
import { createApiToken, laneApprovalRules, type Db } from "@switchyard/db";
import { approvalRulesResponse } from "~/server/contract/lanes.types";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restOnDatabase } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let memberId: string;
const caller = (userId: string) => dashboardCaller({ db }, userId);
const admin = () => caller(seeded.adminId);

/** The AppError a procedure failed with (tRPC keeps it as the cause). */
const failure = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: unknown } | undefined;
  if (!(error?.cause instanceof AppError))
    throw new Error("expected the procedure to fail with an AppError");
  return error.cause;
};

const agentIn = (name: string, lane: string, proxy: string) => ({
  entry: "workflow.yaml",
  files: {
    "workflow.yaml": `name: ${name}
lane: ${lane}
states:
  initial: fix
  fix:
    type: agent
    provider: claude
    prompt: fix the build
    mcp_proxy:
${proxy}
    on_success: done
  done:
    type: terminal
`,
  },
});

type Diagnostic = { code: string; file?: string; line?: number; path?: string; message: string };
const diagnostics = (error: AppError) =>
  (error.details as { diagnostics: Diagnostic[] }).diagnostics;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  await admin().lanes.create({
    name: "release",
    description: "Releases",
    saveRoles: ["owner", "admin", "member"],
    startRoles: ["owner", "admin", "member"],
  });
});
afterAll(async () => {
  await seeded?.close();
});

describe("a lane's approval rules through the dashboard's procedures", () => {
  it("starts with none, and lets an admin set them: connector tools by pattern, Bash by command, Write outside a path", async () => {
    expect(await caller(memberId).lanes.approvalRules({ name: "release" })).toEqual({
      lane: "release",
      rules: [],
    });
    const rules = [
      { tool: "github_merge_*" },
      { tool: "Bash", command: "^git push" },
      { tool: "Write", outside: "src/" },
    ];
    expect(await admin().lanes.setApprovalRules({ name: "release", rules })).toEqual({
      lane: "release",
      rules,
    });
    expect((await caller(memberId).lanes.approvalRules({ name: "release" })).rules).toEqual(rules);
    const listed = (await caller(memberId).lanes.list()).find((l) => l.name === "release");
    expect(listed?.approvalRules).toEqual(rules);
    // What the worker reads at step start.
    expect(await laneApprovalRules(db, seeded.teamId, "release")).toEqual(rules);
    expect(await laneApprovalRules(db, seeded.teamId, "no-such-lane")).toEqual([]);
  });

  it("refuses a bad rule naming its index and field, and stores nothing", async () => {
    const cases: [unknown[], string][] = [
      [[{ tool: "github_merge_*" }, { tool: "Read", command: "rm" }], "rules[1].command"],
      [[{ tool: "Bash", command: "([" }], "rules[0].command"],
      [
        [{ tool: "Bash" }, { tool: "jira_*" }, { tool: "Bash", outside: "src" }],
        "rules[2].outside",
      ],
      [[{ tool: "git hub" }], "rules[0].tool"],
      [[{ command: "rm" }], "rules[0].tool"],
      [[{ tool: "Write", path: "src" }], "rules[0].path"],
      [["Bash"], "rules[0]"],
    ];
    for (const [rules, path] of cases) {
      const error = await failure(admin().lanes.setApprovalRules({ name: "release", rules }));
      expect(error.code, path).toBe("USER.APPROVAL.RULE_INVALID");
      expect(error.location).toEqual({ path });
    }
    const both = await failure(
      admin().lanes.setApprovalRules({
        name: "release",
        rules: [{ tool: "Read", command: "x" }, { tool: "ok_*" }, { tool: "" }],
      }),
    );
    expect(both.details).toEqual({
      problems: [
        { index: 0, field: "command", message: expect.stringContaining("Bash") as string },
        { index: 2, field: "tool", message: expect.any(String) as string },
      ],
    });
    expect((await admin().lanes.approvalRules({ name: "release" })).rules).toHaveLength(3);
  });

  it("refuses members a change and answers NOT_FOUND for a lane the team does not have", async () => {
    await expect(
      caller(memberId).lanes.setApprovalRules({ name: "release", rules: [] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(admin().lanes.approvalRules({ name: "ghost" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      admin().lanes.setApprovalRules({ name: "ghost", rules: [{ tool: "x" }] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("records each change with the rules before and after", async () => {
    const entries = await db.auditLog.findMany({
      where: { teamId: seeded.teamId, action: "lane.approval_rules.set" },
      orderBy: { createdAt: "asc" },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: seeded.adminId,
      targetType: "lane",
      targetId: "release",
      metadata: {
        before: "",
        after: "github_merge_*; Bash whose command matches /^git push/; Write outside src/",
      },
    });
  });
});

describe("saving a workflow against approval rules", () => {
  it("refuses a step with intercept_builtins: false in a lane whose rules hold a built-in, at its line and field", async () => {
    const error = await failure(
      caller(memberId).workflows.save(
        agentIn("pusher", "release", "      intercept_builtins: false"),
      ),
    );
    expect(error.code).toBe("WORKFLOW.VALIDATION_FAILED");
    const found = diagnostics(error).filter((d) => d.code.startsWith("USER.APPROVAL"));
    expect(found).toEqual([
      {
        code: "USER.APPROVAL.BUILTINS_NOT_INTERCEPTED",
        file: "workflow.yaml",
        line: 10,
        column: 27,
        path: "states.fix.mcp_proxy.intercept_builtins",
        message: expect.stringContaining('"Bash whose command matches /^git push/"') as string,
      },
    ]);
    expect(found[0]!.message).toContain('step "fix"');
    expect(await db.workflow.count({ where: { teamId: seeded.teamId, name: "pusher" } })).toBe(0);
  });

  it("refuses the workflow's own rule on a built-in there, and a bad rule, each at its line", async () => {
    const error = await failure(
      caller(memberId).workflows.save(
        agentIn(
          "own-rules",
          "default",
          '      intercept_builtins: false\n      approve:\n        - tool: Edit\n          outside: docs\n        - tool: Bash\n          command: "("',
        ),
      ),
    );
    expect(diagnostics(error).map((d) => [d.code, d.line, d.path])).toEqual([
      ["USER.APPROVAL.BUILTINS_NOT_INTERCEPTED", 12, "states.fix.mcp_proxy.approve[0].tool"],
      ["USER.APPROVAL.RULE_INVALID", 15, "states.fix.mcp_proxy.approve[1].command"],
    ]);
  });

  it("saves a step whose built-ins go through the proxy, with rules of its own added to the lane's", async () => {
    const saved = await caller(memberId).workflows.save(
      agentIn("guarded", "release", "      approve:\n        - tool: Bash\n          command: rm"),
    );
    expect(saved.version).toBe(1);
    const result = stepApprovalRules(await laneApprovalRules(db, seeded.teamId, "release"), {
      name: "fix",
      mcpProxy: { interceptBuiltins: true, approve: [{ tool: "Bash", command: "rm" }] },
    });
    expect("rules" in result && result.rules.map((r) => `${r.origin} ${r.tool}`)).toEqual([
      "lane github_merge_*",
      "lane Bash",
      "lane Write",
      "workflow Bash",
    ]);
  });

  it("gives the worker the refusal when the lane's rules change after the save", async () => {
    await admin().lanes.setApprovalRules({ name: "release", rules: [{ tool: "github_merge_*" }] });
    expect(
      (
        await caller(memberId).workflows.save(
          agentIn("late", "release", "      intercept_builtins: false"),
        )
      ).version,
    ).toBe(1);
    await admin().lanes.setApprovalRules({ name: "release", rules: [{ tool: "Glob" }] });
    const result = stepApprovalRules(await laneApprovalRules(db, seeded.teamId, "release"), {
      name: "fix",
      mcpProxy: { interceptBuiltins: false },
    });
    expect("error" in result && result.error.code).toBe("USER.APPROVAL.BUILTINS_NOT_INTERCEPTED");
  });
});

describe("a lane's approval rules through the REST API", () => {
  const rest = restOnDatabase(() => db);

  it("reads and replaces them with the same contract, refusing a bad rule with 400 and a member's token with 403", async () => {
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "ci",
    });
    const member = (
      await createApiToken(db, { teamId: seeded.teamId, userId: memberId, name: "laptop" })
    ).token;
    const rules = [{ tool: "*_delete_*" }, { tool: "Edit", outside: "docs" }];
    const put = await rest(token, "PUT", "/lanes/default/approval-rules", { rules });
    expect(put).toEqual({ status: 200, body: { lane: "default", rules } });
    const got = await rest(member, "GET", "/lanes/default/approval-rules");
    expect(approvalRulesResponse.parse(got.body)).toEqual({ lane: "default", rules });

    expect(
      await rest(token, "PUT", "/lanes/default/approval-rules", {
        rules: [{ tool: "Bash" }, { tool: "Glob", command: "x" }],
      }),
    ).toMatchObject({
      status: 400,
      body: {
        error: { code: "USER.APPROVAL.RULE_INVALID", location: { path: "rules[1].command" } },
      },
    });
    expect((await rest(member, "PUT", "/lanes/default/approval-rules", { rules: [] })).status).toBe(
      403,
    );
    expect((await rest(token, "GET", "/lanes/ghost/approval-rules")).status).toBe(404);
    expect((await rest(member, "GET", "/lanes/default/approval-rules")).body).toEqual({
      lane: "default",
      rules,
    });
  });
});

/**
 * The authorization matrix: every procedure of the dashboard's router and every REST route
 * has a row here naming the least role it needs ("public": anyone; "signed-in": any user,
 * in a team or not; "instance-admin": an admin of the installation, whatever their team
 * role; otherwise a team role). A procedure or route without a row fails this test, so
 * whoever adds one says who may call it. An "instance-admin" row is also called as an
 * instance admin (owner of team A, REST with their token), who passes; no team role does.
 *
 * Each row is called, against a real database and a real worker, as a fresh owner, admin,
 * member and viewer of team A (REST: with an API token of each), and as a member of team B
 * (at least admin) aimed at team A's object: roles below the least are refused FORBIDDEN,
 * the others pass the guard, and another team's object is NOT_FOUND, never shown nor
 * changed. Inputs are minimal but valid and name real objects (made fresh for each call
 * where the call uses them up), so "allowed" means the guard let the call through; where a
 * row lists `after`, those codes may come after the guard (never FORBIDDEN).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { roleAtLeast } from "@switchyard/core/policy";
import {
  createApiToken,
  createInvitation,
  createTeamWithOwner,
  setBudgetLimit,
  type Role,
} from "@switchyard/db";
import { handleRest, restOperations } from "~/server/rest/rest-api";
import { appRouter } from "~/server/trpc/root";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";
import { finishedRun, recordedAttempt } from "@switchyard/testing/db";
import { MANIFEST, goodPack } from "@switchyard/testing/packs";
import { parkedRun } from "./helpers/waiting-run";

type Least = Role | "signed-in" | "public" | "instance-admin";
/** Builds a call's input (or REST path parameters and body) for a caller of `teamId`; may make a fresh object of team A. */
type Input = (fx: Fixture, as: { userId: string; teamId: string }) => unknown;
type Row = {
  least: Least;
  input?: Input;
  /** the input names an object of team A: a member of team B must get NOT_FOUND */
  cross?: boolean;
  /** codes that may answer after the guard (tRPC codes), e.g. NOT_FOUND for an object that has no such part */
  after?: string[];
  /** application codes that may answer after the guard though they map to 403, e.g. a refusal for what the server lacks */
  afterApp?: string[];
};
/** `req`: the path (the route's own when it has no parameters) and body of one call. */
type RestRow = Row & {
  req?: (
    fx: Fixture,
  ) => Promise<{ path?: string; body?: unknown }> | { path?: string; body?: unknown };
};

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let stack: RunStack;
let fx: Fixture;
const unique = () => randomBytes(4).toString("hex");
const GIT_URL = "https://git.invalid/flows.git";
const packArchive = (name: string) =>
  goodPack(MANIFEST.replace("speckit", name)).toString("base64");
const templateText = (name: string) =>
  `name: ${name}\nstates:\n  ${name}:\n    type: step\n    command: echo hi\n`;
const skillText = (name: string) => `---\nname: ${name}\ndescription: d\n---\nSay hi.\n`;

const LOCAL = (id: string) => ({
  id,
  name: `Files ${id}`,
  transport: "stdio",
  command: "node",
  args: ["/opt/connectors/server.js"],
  credential_env: "FILES_TOKEN",
});
const bundle = (name: string) => ({
  entry: "workflow.yaml",
  files: {
    "workflow.yaml": `name: ${name}\nlane: default\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo hi\n    on_success: done\n  done:\n    type: terminal\n    status: success\n`,
  },
});

/** Team A (the seeded demo team) and its objects; team B, another team. */
class Fixture {
  constructor(
    readonly teamA: string,
    readonly ownerA: string,
    readonly teamB: string,
    readonly helloId: string,
    readonly slowId: string,
    readonly runId: string,
  ) {}
  private owner = () =>
    dashboardCaller(
      { db: stack.db, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, keyring },
      this.ownerA,
      this.teamA,
    );
  member = (teamId: string, role: Role) =>
    addMember(stack.db, teamId, {
      email: `${role}-${unique()}@test.local`,
      name: `${role} ${unique()}`,
      role,
    });
  /** An instance admin who owns team A. */
  instanceAdmin = async () => {
    const userId = await this.member(this.teamA, "owner");
    await stack.db.user.update({ where: { id: userId }, data: { instanceAdmin: true } });
    return userId;
  };
  run = async () => (await this.owner().runs.start({ workflowId: this.slowId })).id;
  /** An open wait of team A (a run parked on a held tool call in the default lane), fresh each call. */
  wait = async () => {
    const version = await stack.db.workflow.findUniqueOrThrow({ where: { id: this.helloId } });
    return (
      await parkedRun(stack.db, {
        teamId: this.teamA,
        workflowId: this.helloId,
        workflowVersionId: version.currentVersionId!,
        startedById: this.ownerA,
      })
    ).waitId;
  };
  /** A budget limit of team A's default lane, fresh each call. */
  budget = async () =>
    (
      await setBudgetLimit(stack.db, this.teamA, {
        scope: "lane",
        target: "default",
        period: "month",
        amounts: { cost_usd: 1000 + Math.random() },
      })
    ).id;
  /** A finished agent attempt of team A with its request and calls recorded, as a replay's source. */
  attempt = async () => {
    const version = await stack.db.workflow.findUniqueOrThrow({ where: { id: this.helloId } });
    const run = await finishedRun(stack.db, {
      teamId: this.teamA,
      workflowId: this.helloId,
      workflowVersionId: version.currentVersionId!,
    });
    const step = await recordedAttempt(stack.db, {
      teamId: this.teamA,
      runId: run.id,
      output: "done",
      calls: [{ tool: "Read", arguments: { path: "a" }, result: "x" }],
    });
    return { runId: run.id, stepRunId: step.id };
  };
  suite = async () =>
    (
      await stack.db.replaySuite.create({
        data: { teamId: this.teamA, workflowId: this.helloId, createdById: this.ownerA },
      })
    ).id;
  workflow = async () => (await this.owner().workflows.save(bundle(`w-${unique()}`))).workflowId;
  connector = async () => {
    // A team has at most 64 connectors: start again from none when near.
    if ((await stack.db.connector.count({ where: { teamId: this.teamA } })) > 48)
      await stack.db.connector.deleteMany({ where: { teamId: this.teamA } });
    return (await this.owner().connectors.create({ definition: LOCAL(`c${unique()}`) })).id;
  };
  template = async () => {
    const name = `t${unique()}`;
    await this.owner().templates.save({ name, content: templateText(name), description: "" });
    return name;
  };
  skill = async () => {
    const name = `s${unique()}`;
    await this.owner().skills.save({ name, content: skillText(name) });
    return name;
  };
  pack = async () => {
    const name = `p${unique()}`;
    await this.owner().packs.install({ archive: packArchive(name) });
    return name;
  };
  /** A linked git repository of team A, fresh each call (its host does not resolve: a sync fails after the guard). */
  gitSource = async () =>
    (await this.owner().git.link({ url: GIT_URL, branch: "main", folder: "" })).source.id;
  variable = async (secret = false) =>
    (
      await this.owner().variables.set({
        name: `V_${unique().toUpperCase()}`,
        value: "plain-value",
        secret,
      })
    ).name;
  lane = async () =>
    (
      await this.owner().lanes.create({
        name: `l${unique()}`,
        description: "",
        saveRoles: ["owner"],
        startRoles: ["owner"],
      })
    ).name;
  ownerToken = async () =>
    (
      await createApiToken(stack.db, {
        teamId: this.teamA,
        userId: this.ownerA,
        name: `t${unique()}`,
      })
    ).id;
  invitation = async (teamId = this.teamA) =>
    createInvitation(stack.db, {
      teamId,
      createdById: this.ownerA,
      role: "viewer",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
}

/**
 * Team A's owner makes a webhook trigger of hello-world (so changing it is someone else's
 * trigger for every caller: admins only, see triggers-webhook.int.test.ts for its runner),
 * or a notification endpoint.
 */
const ownerOf = (f: Fixture) =>
  dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, keyring },
    f.ownerA,
    f.teamA,
  );
const newTrigger = async (f: Fixture) =>
  (await ownerOf(f).triggers.create({ workflowId: f.helloId, kind: "webhook" })).trigger.id;
const newEndpoint = async (f: Fixture) =>
  (
    await ownerOf(f).notifications.create({
      url: "https://hooks.example.com/switchyard",
      events: ["run.failed"],
    })
  ).endpoint.id;

const TRPC: Record<string, Row> = {
  "account.changePassword": {
    least: "signed-in",
    input: () => ({ currentPassword: "not-the-password", newPassword: "a-new-password-1" }),
    after: ["BAD_REQUEST"],
  },

  "workflows.list": { least: "viewer" },
  "workflows.get": { least: "viewer", cross: true, input: (f) => ({ id: f.helloId }) },
  "workflows.validate": { least: "viewer", input: () => bundle("checked") },
  "workflows.save": { least: "member", input: () => bundle(`saved-${unique()}`) },
  "workflows.versions": { least: "viewer", cross: true, input: (f) => ({ id: f.helloId }) },
  "workflows.version": {
    least: "viewer",
    cross: true,
    input: (f) => ({ id: f.helloId, number: 1 }),
  },
  "workflows.diff": {
    least: "viewer",
    cross: true,
    input: (f) => ({ id: f.helloId, from: 1, to: 1 }),
  },
  "workflows.archive": {
    least: "member",
    cross: true,
    input: async (f) => ({ id: await f.workflow() }),
  },

  "runs.start": { least: "member", cross: true, input: (f) => ({ workflowId: f.helloId }) },
  "runs.rerun": {
    least: "member",
    cross: true,
    input: (f) => ({ id: f.runId }),
    after: ["CONFLICT", "BAD_REQUEST"],
  },
  "runs.cancel": {
    least: "member",
    cross: true,
    input: async (f) => ({ id: await f.run() }),
    after: ["CONFLICT"],
  },
  "runs.get": { least: "viewer", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.graph": { least: "viewer", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.list": { least: "viewer" },
  "runs.starters": { least: "viewer" },
  "runs.spans": { least: "viewer", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.toolCalls": { least: "viewer", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.events": { least: "viewer", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.stepActivity": {
    least: "viewer",
    cross: true,
    input: (f) => ({ runId: f.runId, stepRunId: "no-such-step" }),
    after: ["NOT_FOUND"],
  },

  "runs.markExample": { least: "member", cross: true, input: (f) => ({ id: f.runId }) },
  "runs.unmarkExample": { least: "member", cross: true, input: (f) => ({ id: f.runId }) },
  "replay.start": { least: "member", cross: true, input: (f) => f.attempt() },
  "replay.compare": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ a: (await f.attempt()).stepRunId, b: (await f.attempt()).stepRunId }),
  },
  // a workflow without examples: the refusal after the guard
  "replay.suiteStart": {
    least: "member",
    cross: true,
    input: async (f) => ({ workflowId: await f.workflow() }),
    after: ["BAD_REQUEST"],
  },
  "replay.suiteList": { least: "viewer", cross: true, input: (f) => ({ workflowId: f.helloId }) },
  "replay.suiteShow": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ id: await f.suite() }),
  },
  "agents.versions": { least: "viewer" },

  "system.workers": { least: "viewer" },

  "tokens.list": { least: "viewer" },
  "tokens.create": { least: "viewer", input: () => ({ name: "matrix" }) },
  "tokens.revoke": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await f.ownerToken() }),
  },

  "templates.list": { least: "viewer" },
  "templates.get": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ name: await f.template() }),
  },
  "templates.validate": {
    least: "viewer",
    input: () => ({ name: "tv", content: templateText("tv"), description: "" }),
  },
  "templates.save": {
    least: "member",
    input: () => {
      const name = `t${unique()}`;
      return { name, content: templateText(name), description: "" };
    },
  },
  "templates.delete": {
    least: "member",
    cross: true,
    input: async (f) => ({ name: await f.template() }),
  },

  "skills.list": { least: "viewer" },
  "skills.get": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ name: await f.skill() }),
  },
  "skills.validate": {
    least: "viewer",
    input: () => ({ name: "sv", content: skillText("sv") }),
  },
  "skills.save": {
    least: "member",
    input: () => {
      const name = `s${unique()}`;
      return { name, content: skillText(name) };
    },
  },
  "skills.delete": {
    least: "member",
    cross: true,
    input: async (f) => ({ name: await f.skill() }),
  },
  "git.list": { least: "viewer" },
  "git.get": { least: "viewer", cross: true, input: async (f) => ({ id: await f.gitSource() }) },
  "git.link": { least: "admin", input: () => ({ url: GIT_URL, branch: "main", folder: "" }) },
  "git.sync": { least: "member", cross: true, input: async (f) => ({ id: await f.gitSource() }) },
  "git.unlink": { least: "admin", cross: true, input: async (f) => ({ id: await f.gitSource() }) },
  "packs.list": { least: "viewer" },
  "packs.get": { least: "viewer", cross: true, input: async (f) => ({ name: await f.pack() }) },
  "packs.install": { least: "member", input: () => ({ archive: packArchive(`p${unique()}`) }) },
  "packs.remove": { least: "member", cross: true, input: async (f) => ({ name: await f.pack() }) },

  "variables.list": { least: "viewer" },
  "variables.lanes": { least: "viewer" },
  "variables.set": {
    least: "admin",
    input: () => ({ name: `V_${unique().toUpperCase()}`, value: "x", secret: false }),
  },
  "variables.setLanes": {
    least: "admin",
    cross: true,
    input: async (f) => ({ name: await f.variable(true), lanes: ["default"] }),
  },
  "variables.delete": {
    least: "admin",
    cross: true,
    input: async (f) => ({ name: await f.variable() }),
  },

  "models.list": { least: "viewer" },
  "models.set": {
    least: "admin",
    input: () => ({ vendor: "anthropic", apiKey: "sk-ant-matrix-key-0123456789" }),
  },
  "models.remove": { least: "admin", input: () => ({ vendor: "anthropic" }), after: ["NOT_FOUND"] },

  "connectors.list": { least: "viewer" },
  "connectors.create": { least: "admin", input: () => ({ definition: LOCAL(`c${unique()}`) }) },
  "connectors.setUp": { least: "admin", input: () => ({ id: "linear", choice: {} }) },
  "connectors.update": {
    least: "admin",
    cross: true,
    input: async (f) => {
      const id = await f.connector();
      return { id, definition: { ...LOCAL(id), enabled: false } };
    },
  },
  "connectors.remove": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await f.connector() }),
  },
  "connectors.setCredential": {
    least: "admin",
    cross: true,
    input: async (f) => ({
      id: await f.connector(),
      scope: "team",
      value: "files-token-0123456789abcdef",
    }),
  },
  "connectors.revokeCredential": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await f.connector(), scope: "team" }),
    after: ["NOT_FOUND"],
  },
  "connectors.callTool": {
    least: "admin",
    input: async (f) => ({ id: await f.connector(), tool: "read" }),
    after: ["BAD_REQUEST", "INTERNAL_SERVER_ERROR", "NOT_FOUND"],
  },
  "connectors.beginOAuth": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await f.connector(), scope: "team" }),
    after: ["BAD_REQUEST"],
  },
  "connectors.setClientSecret": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await f.connector(), secret: "cs-0123456789abcdef" }),
    after: ["BAD_REQUEST"],
  },

  "lanes.list": { least: "viewer" },
  "lanes.create": {
    least: "admin",
    input: () => ({ name: `l${unique()}`, description: "", saveRoles: [], startRoles: [] }),
  },
  "lanes.update": {
    least: "admin",
    cross: true,
    input: async (f) => ({
      name: await f.lane(),
      description: "changed",
      saveRoles: ["owner"],
      startRoles: ["owner"],
    }),
  },
  "lanes.approvalRules": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ name: await f.lane() }),
  },
  "lanes.setApprovalRules": {
    least: "admin",
    cross: true,
    input: async (f) => ({ name: await f.lane(), rules: [{ tool: "github_merge_*" }] }),
  },
  "lanes.remove": { least: "admin", cross: true, input: async (f) => ({ name: await f.lane() }) },

  "waits.list": { least: "viewer" },
  "waits.get": { least: "viewer", cross: true, input: async (f) => ({ id: await f.wait() }) },
  // Who may answer is the wait's own rule (member unless set): a viewer is refused by it.
  "waits.answer": {
    least: "member",
    cross: true,
    input: async (f) => ({ id: await f.wait(), decision: "deny", message: "not now" }),
  },
  "waits.count": { least: "viewer" },

  "budgets.list": { least: "viewer" },
  "budgets.set": {
    least: "admin",
    input: () => ({ scope: "team", target: "", period: "day", tokens: 1_000_000 }),
  },
  "budgets.remove": { least: "admin", cross: true, input: async (f) => ({ id: await f.budget() }) },

  "triggers.list": { least: "viewer", cross: true, input: (f) => ({ workflowId: f.helloId }) },
  "triggers.get": {
    least: "viewer",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f) }),
  },
  "triggers.create": {
    least: "member",
    cross: true,
    input: (f) => ({ workflowId: f.helloId, kind: "webhook" }),
  },
  "triggers.update": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f), name: "changed" }),
  },
  "triggers.pause": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f) }),
  },
  "triggers.resume": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f) }),
  },
  "triggers.rotateSecret": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f) }),
  },
  "triggers.delete": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newTrigger(f) }),
  },

  "notifications.endpoints": { least: "admin" },
  "notifications.deliveries": { least: "admin" },
  "notifications.create": {
    least: "admin",
    input: () => ({ url: "https://hooks.example.com/x", events: ["run.succeeded"] }),
  },
  "notifications.update": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newEndpoint(f), enabled: false }),
  },
  "notifications.delete": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newEndpoint(f) }),
  },
  "notifications.sendTest": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: await newEndpoint(f) }),
  },

  "audit.list": { least: "admin", input: () => ({}) },
  "overview.get": { least: "viewer", input: () => ({}) },

  "teams.current": { least: "viewer" },
  "teams.mine": { least: "signed-in" },
  "teams.create": { least: "instance-admin", input: () => ({ name: "Matrix team" }) },
  "teams.settings": { least: "viewer" },
  "teams.update": { least: "admin", input: () => ({ maxConcurrentRuns: null }) },

  "members.list": { least: "viewer" },
  "members.changeRole": {
    least: "admin",
    cross: true,
    input: async (f) => ({ userId: await f.member(f.teamA, "viewer"), role: "member" }),
  },
  "members.remove": {
    least: "admin",
    cross: true,
    input: async (f) => ({ userId: await f.member(f.teamA, "viewer") }),
  },
  "members.leave": { least: "viewer" },
  // Without SMTP (as here) a team admin passes the role guard and is then told to ask an instance admin.
  "members.issuePasswordReset": {
    least: "admin",
    cross: true,
    input: async (f) => ({ userId: await f.member(f.teamA, "viewer") }),
    afterApp: ["USER.ACCOUNT.RESET_NEEDS_MAIL"],
  },

  "instance.me": { least: "signed-in" },
  "instance.settings": { least: "instance-admin" },
  "instance.update": { least: "instance-admin", input: () => ({ openSignUp: false }) },
  "instance.audit": { least: "instance-admin", input: () => ({}) },
  "instance.admins": { least: "instance-admin" },
  "instance.people": { least: "instance-admin", input: () => ({ query: "" }) },
  "instance.issuePasswordReset": {
    least: "instance-admin",
    input: async (f) => ({ userId: await f.member(f.teamA, "viewer") }),
  },

  "invitations.list": { least: "admin" },
  "invitations.create": { least: "admin", input: () => ({ role: "member" }) },
  "invitations.revoke": {
    least: "admin",
    cross: true,
    input: async (f) => ({ id: (await f.invitation()).id }),
  },
  "invitations.preview": {
    least: "public",
    input: async (f) => ({ token: (await f.invitation()).token }),
  },
  // A user of team A accepts an invitation to team B.
  "invitations.accept": {
    least: "signed-in",
    input: async (f) => ({ token: (await f.invitation(f.teamB)).token }),
  },
  "invitations.signUp": {
    least: "public",
    input: async (f) => ({
      token: (await f.invitation()).token,
      name: "New",
      email: `new-${unique()}@test.local`,
      password: "long-enough-password",
    }),
  },
};

const REST: Record<string, RestRow> = {
  "GET /workflows": { least: "viewer" },
  "POST /workflows": { least: "member", req: () => ({ body: bundle(`rest-${unique()}`) }) },
  "POST /workflows/validate": { least: "viewer", req: () => ({ body: bundle("checked") }) },
  "GET /workflows/{id}": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}` }),
  },
  "GET /workflows/{id}/versions": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/versions` }),
  },
  "GET /workflows/{id}/versions/{number}": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/versions/1` }),
  },
  "GET /workflows/{id}/diff": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/diff` }),
  },
  "POST /workflows/{id}/archive": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/workflows/${await f.workflow()}/archive` }),
  },
  "POST /workflows/{id}/runs": {
    least: "member",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/runs`, body: {} }),
  },
  "GET /runs": { least: "viewer" },
  "POST /runs/{id}/rerun": {
    least: "member",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/rerun` }),
    after: ["CONFLICT", "BAD_REQUEST"],
  },
  "GET /runs/{id}/steps": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/steps` }),
  },
  "GET /runs/{id}/tool-calls": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/tool-calls` }),
  },
  "GET /runs/{id}/spans": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/spans` }),
  },
  "GET /runs/{id}/events": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/events` }),
  },
  "GET /runs/{id}/logs": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/logs` }),
  },
  "GET /runs/{id}": { least: "viewer", cross: true, req: (f) => ({ path: `/runs/${f.runId}` }) },
  "POST /runs/{id}/cancel": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/runs/${await f.run()}/cancel` }),
    after: ["CONFLICT"],
  },
  "GET /runs/{id}/steps/{stepId}/activity": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/steps/no-such-step/activity` }),
    after: ["NOT_FOUND"],
  },
  "PUT /runs/{id}/example": {
    least: "member",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/example` }),
  },
  "DELETE /runs/{id}/example": {
    least: "member",
    cross: true,
    req: (f) => ({ path: `/runs/${f.runId}/example` }),
  },
  "POST /runs/{runId}/steps/{stepRunId}/replay": {
    least: "member",
    cross: true,
    req: async (f) => {
      const { runId, stepRunId } = await f.attempt();
      return { path: `/runs/${runId}/steps/${stepRunId}/replay`, body: {} };
    },
  },
  "GET /compare": {
    least: "viewer",
    cross: true,
    req: async (f) => ({
      path: `/compare?a=${(await f.attempt()).stepRunId}&b=${(await f.attempt()).stepRunId}`,
    }),
  },
  "POST /workflows/{id}/replay-suites": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/workflows/${await f.workflow()}/replay-suites`, body: {} }),
    after: ["BAD_REQUEST"],
  },
  "GET /workflows/{id}/replay-suites": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/replay-suites` }),
  },
  "GET /replay-suites/{id}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/replay-suites/${await f.suite()}` }),
  },
  "GET /agents/versions": { least: "viewer" },
  "GET /templates": { least: "viewer" },
  "GET /templates/{name}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/templates/${await f.template()}` }),
  },
  "POST /templates/{name}/validate": {
    least: "viewer",
    req: () => ({ path: "/templates/tv/validate", body: { content: templateText("tv") } }),
  },
  "PUT /templates/{name}": {
    least: "member",
    req: () => {
      const name = `t${unique()}`;
      return { path: `/templates/${name}`, body: { content: templateText(name) } };
    },
  },
  "DELETE /templates/{name}": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/templates/${await f.template()}` }),
  },
  "GET /skills": { least: "viewer" },
  "GET /skills/{name}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/skills/${await f.skill()}` }),
  },
  "POST /skills/{name}/validate": {
    least: "viewer",
    req: () => ({ path: "/skills/sv/validate", body: { content: skillText("sv") } }),
  },
  "PUT /skills/{name}": {
    least: "member",
    req: () => {
      const name = `s${unique()}`;
      return { path: `/skills/${name}`, body: { content: skillText(name) } };
    },
  },
  "DELETE /skills/{name}": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/skills/${await f.skill()}` }),
  },
  "GET /git-sources": { least: "viewer" },
  "GET /git-sources/{id}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/git-sources/${await f.gitSource()}` }),
  },
  "POST /git-sources": {
    least: "admin",
    req: () => ({ path: "/git-sources", body: { url: GIT_URL } }),
  },
  "POST /git-sources/{id}/sync": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/git-sources/${await f.gitSource()}/sync` }),
  },
  "DELETE /git-sources/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/git-sources/${await f.gitSource()}` }),
  },
  "GET /packs": { least: "viewer" },
  "GET /packs/{name}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/packs/${await f.pack()}` }),
  },
  "POST /packs": {
    least: "member",
    req: () => ({ path: "/packs", body: { archive: packArchive(`p${unique()}`) } }),
  },
  "DELETE /packs/{name}": {
    least: "member",
    cross: true,
    req: async (f) => ({ path: `/packs/${await f.pack()}` }),
  },
  "GET /variables": { least: "viewer" },
  "PUT /variables/{name}": {
    least: "admin",
    req: () => ({
      path: `/variables/V_${unique().toUpperCase()}`,
      body: { value: "x", secret: false },
    }),
  },
  "DELETE /variables/{name}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/variables/${await f.variable()}` }),
  },
  "PUT /variables/{name}/lanes": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/variables/${await f.variable(true)}/lanes`,
      body: { lanes: ["default"] },
    }),
  },
  "GET /tokens": { least: "viewer" },
  "POST /tokens": { least: "viewer", req: () => ({ body: { name: "matrix" } }) },
  "DELETE /tokens/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/tokens/${await f.ownerToken()}` }),
  },
  "GET /team": { least: "viewer" },
  "PUT /team": { least: "admin", req: () => ({ body: { maxConcurrentRuns: null } }) },
  "GET /models": { least: "viewer" },
  "PUT /models/{vendor}": {
    least: "admin",
    req: () => ({ path: "/models/anthropic", body: { apiKey: "sk-ant-matrix-key-0123456789" } }),
  },
  "DELETE /models/{vendor}": {
    least: "admin",
    req: () => ({ path: "/models/anthropic" }),
    after: ["NOT_FOUND"],
  },
  "GET /workflows/{id}/triggers": {
    least: "viewer",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/triggers` }),
  },
  "POST /workflows/{id}/triggers": {
    least: "member",
    cross: true,
    req: (f) => ({ path: `/workflows/${f.helloId}/triggers`, body: { kind: "webhook" } }),
  },
  "GET /triggers/{id}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}` }),
  },
  "PUT /triggers/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}`, body: { name: "changed" } }),
  },
  "DELETE /triggers/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}` }),
  },
  "POST /triggers/{id}/pause": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}/pause` }),
  },
  "POST /triggers/{id}/resume": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}/resume` }),
  },
  "POST /triggers/{id}/rotate-secret": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/triggers/${await newTrigger(f)}/rotate-secret` }),
  },
  "GET /notifications/endpoints": { least: "admin" },
  "POST /notifications/endpoints": {
    least: "admin",
    req: () => ({ body: { url: "https://hooks.example.com/x", events: ["run.failed"] } }),
  },
  "PUT /notifications/endpoints/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/notifications/endpoints/${await newEndpoint(f)}`,
      body: { enabled: false },
    }),
  },
  "DELETE /notifications/endpoints/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/notifications/endpoints/${await newEndpoint(f)}` }),
  },
  "POST /notifications/endpoints/{id}/test": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/notifications/endpoints/${await newEndpoint(f)}/test` }),
  },
  "GET /notifications/deliveries": { least: "admin" },
  "GET /audit": { least: "admin" },
  "GET /connectors": { least: "viewer" },
  "POST /connectors": {
    least: "admin",
    req: () => ({ body: { definition: LOCAL(`c${unique()}`) } }),
  },
  "PUT /connectors/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => {
      const id = await f.connector();
      return { path: `/connectors/${id}`, body: { definition: { ...LOCAL(id), enabled: false } } };
    },
  },
  "POST /connectors/{id}/setup": {
    least: "admin",
    req: () => ({ path: "/connectors/linear/setup", body: { choice: {} } }),
  },
  "DELETE /connectors/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/connectors/${await f.connector()}` }),
  },
  "PUT /connectors/{id}/credential": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/connectors/${await f.connector()}/credential`,
      body: { scope: "team", value: "files-token-0123456789abcdef" },
    }),
  },
  "DELETE /connectors/{id}/credential": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/connectors/${await f.connector()}/credential`,
      body: { scope: "team" },
    }),
    after: ["NOT_FOUND"],
  },
  "POST /connectors/{id}/oauth": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/connectors/${await f.connector()}/oauth`,
      body: { scope: "team" },
    }),
    after: ["BAD_REQUEST"],
  },
  "PUT /connectors/{id}/client-secret": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/connectors/${await f.connector()}/client-secret`,
      body: { secret: "cs-0123456789abcdef" },
    }),
    after: ["BAD_REQUEST"],
  },
  "POST /connectors/{id}/call": {
    least: "admin",
    req: async (f) => ({ path: `/connectors/${await f.connector()}/call`, body: { tool: "read" } }),
    after: ["BAD_REQUEST", "INTERNAL_SERVER_ERROR", "NOT_FOUND"],
  },
  "GET /lanes": { least: "viewer" },
  "POST /lanes": {
    least: "admin",
    req: () => ({ body: { name: `l${unique()}`, description: "", saveRoles: [], startRoles: [] } }),
  },
  "PUT /lanes/{name}": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/lanes/${await f.lane()}`,
      body: { description: "changed", saveRoles: ["owner"], startRoles: ["owner"] },
    }),
  },
  "GET /waits": { least: "viewer" },
  "GET /waits/{id}": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/waits/${await f.wait()}` }),
  },
  "POST /waits/{id}/answer": {
    least: "member",
    cross: true,
    req: async (f) => ({
      path: `/waits/${await f.wait()}/answer`,
      body: { decision: "approve" },
    }),
  },
  "GET /budgets": { least: "viewer" },
  "PUT /budgets": {
    least: "admin",
    req: () => ({ body: { scope: "team", target: "", period: "month", cost_usd: 5000 } }),
  },
  "DELETE /budgets/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/budgets/${await f.budget()}` }),
  },
  "GET /lanes/{name}/approval-rules": {
    least: "viewer",
    cross: true,
    req: async (f) => ({ path: `/lanes/${await f.lane()}/approval-rules` }),
  },
  "PUT /lanes/{name}/approval-rules": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/lanes/${await f.lane()}/approval-rules`,
      body: { rules: [{ tool: "Bash", command: "^rm" }] },
    }),
  },
  "DELETE /lanes/{name}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/lanes/${await f.lane()}` }),
  },
  "GET /overview": { least: "viewer" },

  "GET /members": { least: "viewer" },
  "PUT /members/{userId}": {
    least: "admin",
    cross: true,
    req: async (f) => ({
      path: `/members/${await f.member(f.teamA, "viewer")}`,
      body: { role: "member" },
    }),
  },
  "DELETE /members/{userId}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/members/${await f.member(f.teamA, "viewer")}` }),
  },
  "GET /instance": { least: "instance-admin" },
  "PUT /instance": { least: "instance-admin", req: () => ({ body: { openSignUp: false } }) },
  "GET /invitations": { least: "admin" },
  "POST /invitations": { least: "admin", req: () => ({ body: { role: "member" } }) },
  "DELETE /invitations/{id}": {
    least: "admin",
    cross: true,
    req: async (f) => ({ path: `/invitations/${(await f.invitation()).id}` }),
  },
};

const ROLES: Role[] = ["owner", "admin", "member", "viewer"];
const HTTP_OF: Record<string, number> = {
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  BAD_REQUEST: 400,
  CONFLICT: 409,
  INTERNAL_SERVER_ERROR: 500,
};

type Outcome = { ok: true } | { ok: false; code: string; appCode?: string; message: string };

const trpcCall = async (
  path: string,
  userId: string | undefined,
  teamId: string | undefined,
  input: unknown,
): Promise<Outcome> => {
  const caller = dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, keyring },
    userId as string,
    teamId,
  );
  const procedure = path
    .split(".")
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
    input?: unknown,
  ) => Promise<unknown>;
  try {
    await procedure(input);
    return { ok: true };
  } catch (error) {
    const e = error as { code?: string; message?: string; cause?: { code?: string } };
    return {
      ok: false,
      code: e.code ?? "THROWN",
      appCode: e.cause?.code,
      message: e.message ?? String(error),
    };
  }
};

/** What a caller of `role` must see: allowed, or the code of its refusal. */
const expected = (least: Least, role: Role | "anonymous") => {
  if (least === "public") return "allowed";
  if (role === "anonymous") return "UNAUTHORIZED";
  if (least === "signed-in") return "allowed";
  if (least === "instance-admin") return "FORBIDDEN";
  return roleAtLeast(role, least) ? "allowed" : "FORBIDDEN";
};

const verdict = (outcome: Outcome, row: Row) => {
  if (outcome.ok) return "allowed";
  if (outcome.appCode && row.afterApp?.includes(outcome.appCode)) return "allowed";
  if (
    row.after?.includes(outcome.code) &&
    outcome.code !== "FORBIDDEN" &&
    outcome.code !== "UNAUTHORIZED"
  )
    return "allowed";
  return outcome.code;
};

const crossRole = (least: Least): Role => (least === "owner" ? "owner" : "admin");

beforeAll(async () => {
  stack = await openRunStack();
  const db = stack.db;
  const ownerB = await db.user.create({ data: { email: "owner-b@test.local", name: "Owner B" } });
  const teamB = (await createTeamWithOwner(db, { name: "Team B", ownerId: ownerB.id })).id;
  const workflows = await db.workflow.findMany({ where: { teamId: stack.teamId } });
  const byName = (name: string) => workflows.find((w) => w.name === name)!.id;
  fx = new Fixture(
    stack.teamId,
    stack.adminId,
    teamB,
    byName("hello-world"),
    byName("slow-countdown"),
    "",
  );
  // An ended run, whose event stream ends too.
  const { id: runId } = await dashboardCaller({ db, queue: stack.queue }, stack.adminId).runs.start(
    { workflowId: byName("hello-world") },
  );
  await runEnded(
    async () => await db.run.findUniqueOrThrow({ where: { id: runId } }),
    "the fixture's run",
  );
  fx = new Fixture(
    stack.teamId,
    stack.adminId,
    teamB,
    byName("hello-world"),
    byName("slow-countdown"),
    runId,
  );
}, 120_000);
afterAll(() => closeRunStack(stack ?? {}));

describe("every procedure and route has a row", () => {
  it("names the least role of every tRPC procedure", () => {
    const procedures = Object.keys(appRouter._def.procedures);
    expect(procedures.filter((p) => !(p in TRPC))).toEqual([]);
  });
  it("names the least role of every REST route", () => {
    expect(restOperations.map((r) => `${r.method} ${r.path}`).filter((k) => !(k in REST))).toEqual(
      [],
    );
  });
});

describe("tRPC procedures", () => {
  const present = Object.entries(TRPC).filter(([path]) => path in appRouter._def.procedures);
  it.each(present)(
    "%s",
    async (path, row) => {
      const seen: Record<string, string> = {};
      const want: Record<string, string> = {};
      for (const role of ROLES) {
        const userId = await fx.member(fx.teamA, role);
        const input = await row.input?.(fx, { userId, teamId: fx.teamA });
        seen[role] = verdict(await trpcCall(path, userId, fx.teamA, input), row);
        want[role] = expected(row.least, role);
      }
      const input = await row.input?.(fx, { userId: "", teamId: fx.teamA });
      seen.anonymous = verdict(await trpcCall(path, undefined, undefined, input), row);
      want.anonymous = expected(row.least, "anonymous");
      if (row.least === "instance-admin") {
        const admin = await fx.instanceAdmin();
        seen.instanceAdmin = verdict(
          await trpcCall(
            path,
            admin,
            fx.teamA,
            await row.input?.(fx, { userId: admin, teamId: fx.teamA }),
          ),
          row,
        );
        want.instanceAdmin = "allowed";
      }
      if (row.cross) {
        const other = await fx.member(fx.teamB, crossRole(row.least));
        const outcome = await trpcCall(
          path,
          other,
          fx.teamB,
          await row.input?.(fx, { userId: other, teamId: fx.teamB }),
        );
        seen.otherTeam = outcome.ok ? "allowed" : outcome.code;
        want.otherTeam = "NOT_FOUND";
      }
      expect(seen).toEqual(want);
    },
    60_000,
  );
});

/** The REST handler in-process; only the status is read (an event stream's body is left unread). */
const rest = async (method: string, path: string, options: { token?: string; body?: unknown }) => {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await handleRest(
    {
      db: stack.db,
      queue: () => stack.queue,
      prefix: stack.prefix,
      publish: (c, m) => stack.redis.publish(c, m),
      keyring: () => keyring,
      redis: () => stack.redis,
    },
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
    path.split("?")[0]!,
  );
  await res.body?.cancel();
  return { status: res.status };
};

describe("REST routes", () => {
  const present = Object.entries(REST).filter(([key]) =>
    restOperations.some((r) => `${r.method} ${r.path}` === key),
  );
  const toVerdict = (status: number, row: RestRow) => {
    if (status < 300) return "allowed";
    const code = Object.entries(HTTP_OF).find(([, s]) => s === status)?.[0] ?? String(status);
    return row.after?.includes(code) && code !== "FORBIDDEN" ? "allowed" : code;
  };
  it.each(present)(
    "%s",
    async (key, row) => {
      const [method, template] = key.split(" ") as [string, string];
      const request = async () => {
        const made = (await row.req?.(fx)) ?? {};
        return { path: made.path ?? template, body: made.body };
      };
      const seen: Record<string, string> = {};
      const want: Record<string, string> = {};
      for (const role of ROLES) {
        const userId = await fx.member(fx.teamA, role);
        const { token } = await createApiToken(stack.db, {
          teamId: fx.teamA,
          userId,
          name: "matrix",
        });
        const { path, body } = await request();
        const res = await rest(method, path, { token, body });
        seen[role] = toVerdict(res.status, row);
        want[role] = expected(row.least, role);
      }
      const anonymous = await request();
      seen.anonymous = toVerdict(
        (await rest(method, anonymous.path, { body: anonymous.body })).status,
        row,
      );
      want.anonymous = row.least === "public" ? "allowed" : "UNAUTHORIZED";
      if (row.least === "instance-admin") {
        const admin = await fx.instanceAdmin();
        const { token } = await createApiToken(stack.db, {
          teamId: fx.teamA,
          userId: admin,
          name: "matrix",
        });
        const { path, body } = await request();
        seen.instanceAdmin = toVerdict((await rest(method, path, { token, body })).status, row);
        want.instanceAdmin = "allowed";
      }
      if (row.cross) {
        const other = await fx.member(fx.teamB, crossRole(row.least));
        const { token } = await createApiToken(stack.db, {
          teamId: fx.teamB,
          userId: other,
          name: "matrix",
        });
        const { path, body } = await request();
        const res = await rest(method, path, { token, body });
        seen.otherTeam =
          res.status < 300
            ? "allowed"
            : (Object.entries(HTTP_OF).find(([, s]) => s === res.status)?.[0] ??
              String(res.status));
        want.otherTeam = "NOT_FOUND";
      }
      expect(seen).toEqual(want);
    },
    60_000,
  );
});

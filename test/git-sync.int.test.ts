/**
 * Workflows from git against a real git server (bare repositories behind `git http-backend`
 * on 127.0.0.2, which the egress allow-list names): a sync makes a version of each workflow
 * file with the commit id and its bundle's files, read-only in the editor; a bad file is
 * reported with file, line and column and keeps the good version; the token is stored
 * sealed only and never shows in rows, answers or errors; push webhooks sync only when
 * their signature is right; another team sees nothing; only allowed URLs and paths link.
 */
import { createHmac } from "node:crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { claimGitSync, createApiToken, finishGitSync, listAuditLog, type Db } from "@switchyard/db";
import { startGitServer, type GitServer } from "@switchyard/testing/git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { syncDueGitSources } from "~/server/git/git-schedule";
import { receiveGitPush } from "~/server/git/receive-git-push";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { everyRow } from "./helpers/every-row";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

const TOKEN = "glpat-sync-token-0123456789abcdef";
const WRONG = "glpat-wrong-token-fedcba9876543210";

let seeded: SeededDatabase;
let db: Db;
let git: GitServer;
let memberId: string;
let otherAdminId: string;
let otherTeamId: string;

const egress = (roots: string[] = []) =>
  webEgress(parseEgressAllowList("127.0.0.2/32"), "https://api.github.com", roots);
const as = (userId: string, teamId?: string, roots?: string[]) =>
  dashboardCaller({ db, keyring: environmentKeyring(), egress: egress(roots) }, userId, teamId);
const admin = () => as(seeded.adminId);

const flow = (name: string, word: string) =>
  `name: ${name}\nstates:\n  initial: run\n  run:\n    type: step\n    command: echo ${word}\n    on_success: done\n  done:\n    type: terminal\n`;
const scripted = (name: string) =>
  `name: ${name}\nstates:\n  initial: build\n  build:\n    type: step\n    script_file: scripts/build.sh\n    on_success: done\n  done:\n    type: terminal\n`;

let firstCommit = "";

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  git = await startGitServer("127.0.0.2", TOKEN);
  firstCommit = git.create("flows", {
    "README.md": "not synced: outside the folder\n",
    "workflows/git-hello.yaml": flow("git-hello", "one"),
    "workflows/git-build.yaml": scripted("git-build"),
    "workflows/scripts/build.sh": "echo building\n",
  });
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  otherTeamId = (await db.team.create({ data: { slug: "other", name: "Other" } })).id;
  otherAdminId = await addMember(db, otherTeamId, {
    email: "other@test.local",
    name: "Other",
    role: "admin",
  });
}, 60_000);
afterAll(async () => {
  await git?.close();
  await seeded?.close();
});

const linkFlows = (token = TOKEN) =>
  admin().git.link({ url: git.url("flows"), branch: "main", folder: "workflows", token });

const workflowNamed = async (name: string) => {
  const list = await admin().workflows.list();
  const found = list.find((w) => w.name === name);
  if (!found) throw new Error(`no workflow ${name}`);
  return admin().workflows.get({ id: found.id });
};

describe("workflows from git", () => {
  let sourceId = "";

  it("syncs each workflow file of the folder as a version with the commit id, read-only in the editor", async () => {
    const linked = await linkFlows();
    sourceId = linked.source.id;
    expect(linked.webhookSecret).toMatch(/^gitwh_/);
    expect(linked.source).toMatchObject({ hasToken: true, folder: "workflows", branch: "main" });
    expect(JSON.stringify(linked)).not.toContain(TOKEN);

    const report = await admin().git.sync({ id: sourceId });
    expect(report).toMatchObject({ status: "ok", commit: firstCommit, error: null });
    expect(report.files.map((f) => [f.path, f.status, f.version]).sort()).toEqual([
      ["workflows/git-build.yaml", "saved", 1],
      ["workflows/git-hello.yaml", "saved", 1],
    ]);
    // The token went to the git server, as Basic authentication.
    expect(git.seenAuth).toContain(
      `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`,
    );

    const hello = await workflowNamed("git-hello");
    expect(hello.git).toMatchObject({
      sourceId,
      url: git.url("flows"),
      branch: "main",
      path: "workflows/git-hello.yaml",
      commitId: firstCommit,
    });
    const build = await workflowNamed("git-build");
    expect(build.files["scripts/build.sh"]).toBe("echo building\n");
    expect(build.files["README.md"]).toBeUndefined();
    const versions = await admin().workflows.versions({ id: hello.id });
    expect(versions.versions[0]).toMatchObject({ number: 1, commitId: firstCommit });

    // The editor cannot save it: it says where to change it.
    await expect(
      admin().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": flow("git-hello", "edited") },
      }),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.GIT.READ_ONLY",
        message: `"git-hello" is synced from git (workflows/git-hello.yaml) and is read-only here: change it in the repository and sync`,
      },
    });

    // Nothing changed: no new versions.
    const again = await admin().git.sync({ id: sourceId });
    expect(again.files.map((f) => f.status)).toEqual(["unchanged", "unchanged"]);
    const actions = (await listAuditLog(db, { teamId: seeded.teamId, limit: 50 })).entries.map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["git.link", "git.sync"]));
  });

  it("reports a bad file with file, line and column and keeps its good version; good files still sync", async () => {
    const second = git.commit("flows", {
      "workflows/git-hello.yaml": flow("git-hello", "two").replace(
        "on_success: done",
        "on_sucess: done",
      ),
      "workflows/git-extra.yaml": flow("git-extra", "extra"),
    });
    const report = await admin().git.sync({ id: sourceId });
    expect(report.status).toBe("invalid");
    expect(report.commit).toBe(second);
    const bad = report.files.find((f) => f.path === "workflows/git-hello.yaml")!;
    expect(bad.status).toBe("invalid");
    expect(bad.diagnostics[0]).toMatchObject({
      file: "workflows/git-hello.yaml",
      line: 7,
      column: 5,
    });
    expect(report.files.find((f) => f.path === "workflows/git-extra.yaml")).toMatchObject({
      status: "saved",
      version: 1,
    });
    const hello = await workflowNamed("git-hello");
    expect(hello.version).toBe(1);
    expect(hello.git?.commitId).toBe(firstCommit);
    expect((await workflowNamed("git-extra")).git?.commitId).toBe(second);
    // The source keeps the per-file report for the settings page.
    const source = await admin().git.get({ id: sourceId });
    expect(source.lastStatus).toBe("invalid");
    expect(
      source.lastFiles.find((f) => f.path === "workflows/git-hello.yaml")?.diagnostics[0]?.line,
    ).toBe(7);

    // Fixed in git: a new version with the new commit. A file removed: its workflow is archived.
    const third = git.commit("flows", {
      "workflows/git-hello.yaml": flow("git-hello", "two"),
      "workflows/git-extra.yaml": null,
    });
    const fixed = await admin().git.sync({ id: sourceId });
    expect(fixed.status).toBe("ok");
    expect(fixed.files.find((f) => f.path === "workflows/git-hello.yaml")).toMatchObject({
      status: "saved",
      version: 2,
    });
    expect(fixed.files.find((f) => f.path === "workflows/git-extra.yaml")?.status).toBe("removed");
    expect((await workflowNamed("git-hello")).git?.commitId).toBe(third);
    expect((await admin().workflows.list()).some((w) => w.name === "git-extra")).toBe(false);
  });

  it("keeps the token sealed: never in a row, an answer or an error, even when the server refuses it", async () => {
    const wrong = await linkFlows(WRONG);
    const report = await admin().git.sync({ id: wrong.source.id });
    expect(report.status).toBe("failed");
    expect(report.error?.code).toBe("USER.GIT.FETCH_FAILED");
    expect(report.error?.message).toMatch(/^the repository refused access: give a token/);
    const basic = (t: string) => Buffer.from(`x-access-token:${t}`).toString("base64");
    const rows = await everyRow(db);
    for (const secret of [TOKEN, WRONG, basic(TOKEN), basic(WRONG)]) {
      expect(JSON.stringify(report)).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
    expect((await admin().git.get({ id: wrong.source.id })).lastError).toMatch(/FETCH_FAILED/);
    await admin().git.unlink({ id: wrong.source.id });
  });

  it("syncs from a push webhook only with a valid signature (GitHub, Gitea, GitLab) and for its branch", async () => {
    git.create("hooks", { "hook-flow.yaml": flow("hook-flow", "one") });
    const source = await admin().git.link({ url: git.url("hooks"), branch: "main", token: TOKEN });
    const secret = source.webhookSecret;
    const deps = { db, keyring: environmentKeyring, egress: egress() };
    const body = (ref: string) => JSON.stringify({ ref, after: "x" });
    const hmac = (b: string) => createHmac("sha256", secret).update(b).digest("hex");
    const push = async (headers: Record<string, string>, b = body("refs/heads/main")) => {
      let sync: Promise<unknown> = Promise.resolve();
      const answer = await receiveGitPush(deps, {
        sourceId: source.source.id,
        headers: new Headers(headers),
        rawBody: b,
        background: (p) => {
          sync = p;
        },
      });
      await sync;
      return answer;
    };
    await expect(
      push({ "x-github-event": "push", "x-hub-signature-256": `sha256=${"0".repeat(64)}` }),
    ).rejects.toMatchObject({ code: "USER.WEBHOOK.SIGNATURE_INVALID" });
    await expect(
      push({ "x-gitlab-event": "Push Hook", "x-gitlab-token": "nope" }),
    ).rejects.toMatchObject({
      code: "USER.WEBHOOK.SIGNATURE_INVALID",
    });
    await expect(push({ "x-github-event": "push" })).rejects.toMatchObject({
      code: "USER.WEBHOOK.SIGNATURE_MISSING",
    });
    // A signature of another body does not pass either.
    await expect(
      push({
        "x-github-event": "push",
        "x-hub-signature-256": `sha256=${hmac(body("refs/heads/x"))}`,
      }),
    ).rejects.toMatchObject({ code: "USER.WEBHOOK.SIGNATURE_INVALID" });
    expect((await admin().git.get({ id: source.source.id })).lastSyncAt).toBeNull();

    const b = body("refs/heads/main");
    expect(
      await push({ "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac(b)}` }),
    ).toEqual({
      syncing: true,
    });
    const first = await admin().git.get({ id: source.source.id });
    expect(first.lastStatus).toBe("ok");
    expect(first.workflows.map((w) => w.name)).toEqual(["hook-flow"]);

    const next = git.commit("hooks", { "hook-flow.yaml": flow("hook-flow", "two") });
    expect(await push({ "x-gitea-event": "push", "x-gitea-signature": hmac(b) })).toEqual({
      syncing: true,
    });
    expect((await admin().git.get({ id: source.source.id })).lastCommit).toBe(next);
    const last = git.commit("hooks", { "hook-flow.yaml": flow("hook-flow", "three") });
    expect(await push({ "x-gitlab-event": "Push Hook", "x-gitlab-token": secret })).toEqual({
      syncing: true,
    });
    expect((await workflowNamed("hook-flow")).git?.commitId).toBe(last);
    // A push while another sync runs (which read the branch before it) is not lost: that
    // sync's end makes one more due, and the scheduler's next pass reads the new commit.
    expect(await claimGitSync(db, seeded.teamId, source.source.id)).toBe(true);
    const during = git.commit("hooks", { "hook-flow.yaml": flow("hook-flow", "four") });
    let refused: Promise<unknown> = Promise.resolve();
    expect(
      await receiveGitPush(deps, {
        sourceId: source.source.id,
        headers: new Headers({ "x-gitlab-event": "Push Hook", "x-gitlab-token": secret }),
        rawBody: body("refs/heads/main"),
        background: (p) => {
          refused = p;
        },
      }),
    ).toEqual({ syncing: true });
    await expect(refused).rejects.toMatchObject({ code: "USER.GIT.SYNC_RUNNING" });
    expect((await workflowNamed("hook-flow")).git?.commitId).toBe(last);
    await finishGitSync(db, {
      teamId: seeded.teamId,
      id: source.source.id,
      actorUserId: null,
      outcome: { status: "ok", commit: last, error: null, files: [] },
    });
    expect(await syncDueGitSources(deps)).toBe(1);
    expect((await workflowNamed("hook-flow")).git?.commitId).toBe(during);
    expect(await syncDueGitSources(deps)).toBe(0);
    // Another branch, or a ping: answered, nothing synced.
    const other = body("refs/heads/feature");
    expect(
      await push(
        { "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac(other)}` },
        other,
      ),
    ).toEqual({ syncing: false });
    await expect(
      receiveGitPush(deps, { sourceId: "git_nope", headers: new Headers(), rawBody: "{}" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("syncs on its schedule as the member who linked it, and keeps a failure when that member has left", async () => {
    git.create("timed", { "timed-flow.yaml": flow("timed-flow", "one") });
    const deps = { db, keyring: environmentKeyring, egress: egress() };
    const linked = await admin().git.link({
      url: git.url("timed"),
      branch: "main",
      token: TOKEN,
      syncIntervalMinutes: 30,
    });
    const leaverId = await addMember(db, seeded.teamId, {
      email: "leaver@test.local",
      name: "Leaver",
      role: "admin",
    });
    const orphan = await as(leaverId).git.link({
      url: git.url("timed"),
      branch: "main",
      syncIntervalMinutes: 60,
    });
    await db.membership.deleteMany({ where: { userId: leaverId } });

    const before = Date.now();
    expect(await syncDueGitSources(deps)).toBe(1);
    const timed = await admin().git.get({ id: linked.source.id });
    expect(timed.lastStatus).toBe("ok");
    expect(timed.workflows.map((w) => w.name)).toEqual(["timed-flow"]);
    expect(timed.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(before + 30 * 60_000);
    const left = await admin().git.get({ id: orphan.source.id });
    expect(left.lastStatus).toBe("failed");
    expect(left.lastError).toMatch(/^FORBIDDEN: the member who linked this repository/);
    expect(left.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(before + 60 * 60_000);
    // Nothing is due now; in 31 minutes the first is again.
    expect(await syncDueGitSources(deps)).toBe(0);
    // A sync whose process died holds its claim for ten minutes, then the schedule takes it over.
    const claimed = (at: Date) =>
      db.gitSource.update({ where: { id: linked.source.id }, data: { syncingSince: at } });
    await claimed(new Date());
    expect(await syncDueGitSources(deps, new Date(before + 31 * 60_000))).toBe(0);
    await claimed(new Date(Date.now() - 11 * 60_000));
    expect(await syncDueGitSources(deps, new Date(before + 31 * 60_000))).toBe(1);
    await admin().git.unlink({ id: orphan.source.id });
  });

  it("serves the same operations over REST with an API token", async () => {
    git.create("rest", { "rest-flow.yaml": flow("rest-flow", "one") });
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "git-rest",
    });
    const rest = async (method: string, path: string, body?: unknown) => {
      const res = await handleRest(
        {
          db,
          queue: () => {
            throw new Error("no queue");
          },
          prefix: "unused",
          publish: () => Promise.resolve(0),
          keyring: environmentKeyring,
          egress: () => egress(),
        },
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        path,
      );
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const linked = await rest("POST", "/git-sources", { url: git.url("rest"), token: TOKEN });
    expect(linked.status).toBe(201);
    const id = (linked.body.source as { id: string }).id;
    const synced = await rest("POST", `/git-sources/${id}/sync`);
    expect(synced).toMatchObject({
      status: 200,
      body: { status: "ok", files: [{ path: "rest-flow.yaml", status: "saved", version: 1 }] },
    });
    const listed = await rest("GET", "/git-sources");
    expect(JSON.stringify(listed.body)).not.toContain(TOKEN);
    expect(await rest("POST", "/git-sources", { url: "ftp://example.com/x.git" })).toMatchObject({
      status: 400,
      body: { error: { code: "USER.EGRESS.DENIED", location: { path: "url" } } },
    });
    expect((await rest("DELETE", `/git-sources/${id}`)).status).toBe(200);
    expect((await rest("GET", `/git-sources/${id}`)).status).toBe(404);
  });

  it("keeps each team's repositories to itself; members sync but only admins link", async () => {
    const other = as(otherAdminId, otherTeamId);
    expect(await other.git.list()).toEqual([]);
    await expect(other.git.get({ id: sourceId })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
    await expect(other.git.sync({ id: sourceId })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
    await expect(other.git.unlink({ id: sourceId })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
    expect((await other.workflows.list()).some((w) => w.name === "git-hello")).toBe(false);
    // A webhook names its source, and the source its team: another team's secret does not open it.
    const theirs = await other.git.link({
      url: git.url("flows"),
      branch: "main",
      folder: "workflows",
    });
    const b = JSON.stringify({ ref: "refs/heads/main" });
    await expect(
      receiveGitPush(
        { db, keyring: environmentKeyring, egress: egress() },
        {
          sourceId,
          headers: new Headers({
            "x-github-event": "push",
            "x-hub-signature-256": `sha256=${createHmac("sha256", theirs.webhookSecret).update(b).digest("hex")}`,
          }),
          rawBody: b,
        },
      ),
    ).rejects.toMatchObject({ code: "USER.WEBHOOK.SIGNATURE_INVALID" });

    const member = as(memberId);
    expect((await member.git.sync({ id: sourceId })).status).toBe("ok");
    await expect(
      member.git.link({ url: git.url("flows"), branch: "main", folder: "workflows" }),
    ).rejects.toMatchObject({ cause: { code: "FORBIDDEN" } });
  });

  it("links only URLs the egress rule allows, and local paths only under an allowed folder", async () => {
    const refused = (input: { url: string; branch?: string; folder?: string }, roots?: string[]) =>
      as(seeded.adminId, undefined, roots).git.link({ branch: "main", ...input });
    const port = new URL(git.url("flows")).port;
    await expect(refused({ url: `http://127.0.0.3:${port}/flows.git` })).rejects.toMatchObject({
      cause: { code: "USER.EGRESS.DENIED", location: { path: "url" } },
    });
    await expect(
      refused({ url: `http://user:${TOKEN}@127.0.0.2:${port}/flows.git` }),
    ).rejects.toMatchObject({
      cause: { code: "USER.EGRESS.DENIED" },
    });
    await expect(refused({ url: git.path("flows") })).rejects.toMatchObject({
      cause: { code: "USER.GIT.INVALID_SOURCE", location: { path: "url" } },
    });
    await expect(
      refused({ url: git.url("flows"), branch: "--upload-pack=touch /tmp/x" }),
    ).rejects.toMatchObject({
      cause: { code: "USER.GIT.INVALID_SOURCE", location: { path: "branch" } },
    });
    await expect(refused({ url: git.url("flows"), folder: "../etc" })).rejects.toMatchObject({
      cause: { code: "USER.GIT.INVALID_SOURCE", location: { path: "folder" } },
    });

    // Where the instance allows a folder, a repository in it links by its path and syncs.
    git.create("local", { "local-flow.yaml": flow("local-flow", "here") });
    const local = as(seeded.adminId, undefined, [git.root]);
    const linked = await local.git.link({ url: git.path("local"), branch: "main" });
    const report = await local.git.sync({ id: linked.source.id });
    expect(report).toMatchObject({
      status: "ok",
      files: [{ path: "local-flow.yaml", status: "saved" }],
    });
    // A path outside the allowed folders is refused when linking, in the same words whether
    // it exists or not (nothing tells which paths exist on the server).
    const existing = await refused({ url: "/etc" }, [git.root]).catch((e: unknown) => e);
    const missing = await refused({ url: "/no-such-folder-here" }, [git.root]).catch(
      (e: unknown) => e,
    );
    expect(existing).toMatchObject({ cause: { code: "USER.GIT.INVALID_SOURCE" } });
    expect(String((missing as Error).message).replace("/no-such-folder-here", "/etc")).toBe(
      String((existing as Error).message),
    );
    // And when syncing (the instance may have narrowed the list since).
    const elsewhere = await as(seeded.adminId, undefined, [git.root]).git.link({
      url: git.path("local"),
      branch: "main",
    });
    const outside = await as(seeded.adminId, undefined, ["/nonexistent-root"]).git.sync({
      id: elsewhere.source.id,
    });
    expect(outside).toMatchObject({ status: "failed", error: { code: "USER.GIT.INVALID_SOURCE" } });
  });
});

/**
 * Workflow packs end to end: a pack installed from its .tar.gz (tRPC and REST) becomes the
 * team's `<pack>/<workflow>` workflows, which run in the real worker reading the pack's
 * script and prompt; an update is a new pack and workflow version while runs keep the
 * version they pinned; removing archives the workflows. Bad packs are refused whole, with
 * the file and field named, and a pack from a GitHub release (a stand-in of the API on
 * 127.0.0.2, reached through the egress guard) is installed only when its SHA-256 matches.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { createApiToken, listAuditLog } from "@switchyard/db";
import { MANIFEST, SPECIFY, goodPack, nextPackVersion, tarGz } from "@switchyard/testing/packs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
import {
  closeRunStack,
  openRunStack,
  runEnded,
  succeededOutput,
  type RunStack,
} from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";

let stack: RunStack | undefined;
let github: Server | undefined;
let githubBase = "";
/** Where the GitHub stand-in redirects a private asset's download (another origin, as GitHub's). */
let assetHost: Server | undefined;
let assetBase = "";
const PRIVATE_TOKEN = "ghp-private-pack-token-0123456789";
/** The Authorization header of each request the stand-in API, and the asset host, saw. */
const seenAuth = { api: [] as (string | null)[], asset: [] as (string | null)[] };
const releases = new Map<string, { archive: Buffer; checksum?: string }>();

const egress = () => webEgress(parseEgressAllowList("127.0.0.2/32"), `${githubBase}/api`);
const caller = () =>
  dashboardCaller({ ...stack!, egress: egress(), keyring: environmentKeyring() }, stack!.adminId);
const b64 = (b: Buffer) => b.toString("base64");

const runOnce = (workflowId: string, versionId?: string, state = "run") =>
  succeededOutput(caller, state, workflowId, versionId);

/** One of the team's own workflows. */
const own = (name: string) =>
  `name: ${name}\nstates:\n  initial: run\n  run:\n    type: step\n    command: echo mine\n    on_success: done\n  done:\n    type: terminal\n`;

/** A workflow whose one step, `state`, prints its own name. */
const says = (name: string, state: string) =>
  `name: ${name}\nstates:\n  initial: ${state}\n  ${state}:\n    type: step\n    command: echo ${state}\n    on_success: done\n  done:\n    type: terminal\n`;

/** A workflow that calls each of `callees` in turn. */
const calls = (name: string, callees: string[]) =>
  `name: ${name}\nstates:\n  initial: call0\n${callees
    .map(
      (c, i) =>
        `  call${i}:\n    type: call_workflow\n    workflow: ${c}\n    on_success: ${i + 1 < callees.length ? `call${i + 1}` : "done"}\n`,
    )
    .join("")}  done:\n    type: terminal\n`;

const privateArchive = () => goodPack(MANIFEST.replace("speckit", "private-pack"));

beforeAll(async () => {
  assetHost = createServer((req, res) => {
    seenAuth.asset.push(req.headers.authorization ?? null);
    if (req.url === "/signed/archive") return res.end(privateArchive());
    const sum = createHash("sha256").update(privateArchive()).digest("hex");
    res.end(`${sum}  private_1.0.0.tar.gz\n`);
  });
  await new Promise<void>((resolve) => assetHost!.listen(0, "127.0.0.2", resolve));
  assetBase = `http://127.0.0.2:${(assetHost.address() as AddressInfo).port}`;
  github = createServer((req, res) => {
    const url = req.url ?? "";
    // A private repository: GitHub answers 404 unless the token is sent, and its assets are
    // read from the API (application/octet-stream), which redirects to a signed address.
    if (url.startsWith("/api/repos/acme/private/")) {
      seenAuth.api.push(req.headers.authorization ?? null);
      if (req.headers.authorization !== `Bearer ${PRIVATE_TOKEN}`) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end('{"message":"Not Found"}');
      }
      const asset = /\/releases\/assets\/(archive|sums)$/.exec(url);
      if (asset && req.headers.accept === "application/octet-stream") {
        res.writeHead(302, { location: `${assetBase}/signed/${asset[1]}` });
        return res.end();
      }
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          tag_name: "v1.0.0",
          assets: ["archive", "sums"].map((a) => ({
            name: a === "archive" ? "private_1.0.0.tar.gz" : "checksums.txt",
            url: `${githubBase}/api/repos/acme/private/releases/assets/${a}`,
            browser_download_url: `${assetBase}/needs-a-browser-session/${a}`,
          })),
        }),
      );
    }
    const m = /^\/api\/repos\/acme\/speckit\/releases\/(latest|tags\/(.+))$/.exec(url);
    const tag = m?.[1] === "latest" ? "v1.0.0" : m?.[2];
    if (m && tag && releases.has(tag)) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          tag_name: tag,
          assets: [
            {
              name: `speckit_${tag}.tar.gz`,
              browser_download_url: `${githubBase}/dl/${tag}/archive`,
            },
            { name: "checksums.txt", browser_download_url: `${githubBase}/dl/${tag}/sums` },
          ],
        }),
      );
    }
    const dl = /^\/dl\/([^/]+)\/(archive|sums)$/.exec(url);
    const release = dl ? releases.get(dl[1]!) : undefined;
    if (dl && release) {
      if (dl[2] === "archive") return res.end(release.archive);
      const sum = release.checksum ?? createHash("sha256").update(release.archive).digest("hex");
      return res.end(`${sum}  speckit_${dl[1]}.tar.gz\n${"0".repeat(64)}  other.tar.gz\n`);
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"message":"Not Found"}');
  });
  await new Promise<void>((resolve) => github!.listen(0, "127.0.0.2", resolve));
  githubBase = `http://127.0.0.2:${(github.address() as AddressInfo).port}`;
  stack = await openRunStack();
}, 120_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await new Promise((resolve) => github?.close(resolve));
  await new Promise((resolve) => assetHost?.close(resolve));
});

describe("workflow packs", () => {
  it("installs a pack whose workflow runs in the worker with the pack's script and prompt, pinned per version", async () => {
    const installed = await caller().packs.install({ archive: b64(goodPack()) });
    expect(installed).toMatchObject({
      name: "speckit",
      version: "1.0.0",
      number: 1,
      workflows: [{ name: "speckit/specify", version: 1 }],
    });
    const workflowId = installed.workflows[0]!.id;
    expect(await runOnce(workflowId)).toBe("hello from the pack prompt");
    const page = await caller().workflows.get({ id: workflowId });
    expect(page).toMatchObject({ name: "speckit/specify", pack: "speckit", entry: "specify.yaml" });
    expect(Object.keys(page.files).sort()).toEqual([
      "prompts/greeting.md",
      "scripts/hello.sh",
      "specify.yaml",
    ]);
    expect((await caller().workflows.list()).find((w) => w.id === workflowId)?.pack).toBe(
      "speckit",
    );

    // An update is a new pack version and a new workflow version; the first still runs as it was.
    const updated = await caller().packs.install({ archive: b64(nextPackVersion()) });
    expect(updated).toMatchObject({ version: "1.1.0", number: 2, workflows: [{ version: 2 }] });
    expect(await runOnce(workflowId)).toBe("v2 says the new prompt");
    const first = (await caller().workflows.versions({ id: workflowId })).versions.find(
      (v) => v.number === 1,
    )!;
    expect(await runOnce(workflowId, first.id)).toBe("hello from the pack prompt");
    const detail = await caller().packs.get({ name: "speckit" });
    expect(detail.versions.map((v) => [v.number, v.version])).toEqual([
      [2, "1.1.0"],
      [1, "1.0.0"],
    ]);
    expect(detail.awfVersion).toBe(">=0.5.0");

    // Over REST, started by the pack workflow's name.
    const { token } = await createApiToken(stack!.db, {
      teamId: stack!.teamId,
      userId: stack!.adminId,
      name: "packs",
    });
    const rest = restCaller({ ...stack!, keyring: environmentKeyring() }, () => token);
    const listed = await rest("GET", "/packs");
    expect(listed.status).toBe(200);
    expect(listed.body.packs).toMatchObject([{ name: "speckit", version: "1.1.0" }]);
    const started = await rest("POST", `/workflows/${encodeURIComponent("speckit/specify")}/runs`, {
      body: { inputs: {} },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await runEnded(
      () => caller().runs.get({ id: started.body.id as string }),
      "rest run",
      60_000,
    );
    expect(run.status).toBe("succeeded");
    expect(run.workflowId).toBe(workflowId);
  }, 240_000);

  it("keeps pack workflows read-only and pack names apart from the team's own workflows", async () => {
    // Saving a workflow under the pack's name is refused.
    await expect(
      caller().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": own("speckit/mine") },
      }),
    ).rejects.toMatchObject({ cause: { code: "USER.PACK.NAME_COLLISION" } });
    // A pack named like one of the team's workflows is refused whole.
    await caller().workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": own("reports") },
    });
    await expect(
      caller().packs.install({ archive: b64(goodPack(MANIFEST.replace("speckit", "reports"))) }),
    ).rejects.toMatchObject({ cause: { code: "USER.PACK.NAME_COLLISION" } });
    expect((await caller().packs.list()).map((p) => p.name)).toEqual(["speckit"]);
  });

  it("refuses a bad pack whole, naming the file and field", async () => {
    const before = (await caller().workflows.list()).length;
    await expect(
      caller().packs.install({ archive: b64(goodPack(MANIFEST.replace("speckit", "local"))) }),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.PACK.RESERVED_NAME",
        location: { file: "manifest.yaml", path: "name", line: 1 },
      },
    });
    await expect(
      caller().packs.install({
        archive: b64(
          tarGz([
            { path: "manifest.yaml", content: MANIFEST },
            { path: "../x", content: "" },
          ]),
        ),
      }),
    ).rejects.toMatchObject({ cause: { code: "USER.PACK.INVALID_ARCHIVE" } });
    // One of two workflows does not validate: neither is installed.
    const twoWorkflows = tarGz([
      {
        path: "manifest.yaml",
        content: MANIFEST.replace("speckit", "broken").concat("  - review\n"),
      },
      { path: "workflows/specify.yaml", content: SPECIFY },
      {
        path: "workflows/review.yaml",
        content: SPECIFY.replace("name: specify", "name: review").replace(
          "type: terminal",
          "type: terminus",
        ),
      },
      { path: "scripts/hello.sh", content: "echo hi\n" },
    ]);
    await expect(caller().packs.install({ archive: b64(twoWorkflows) })).rejects.toMatchObject({
      cause: {
        code: "WORKFLOW.VALIDATION_FAILED",
        details: {
          diagnostics: [expect.objectContaining({ file: "workflows/review.yaml", line: 9 })],
        },
      },
    });
    expect((await caller().workflows.list()).length).toBe(before);
    expect((await caller().packs.list()).map((p) => p.name)).toEqual(["speckit"]);
  });

  it("resolves a pack workflow's call_workflow inside its pack first, then among the team's workflows", async () => {
    // The team's own workflows, some named as the pack's are.
    for (const [name, state] of [
      ["helper", "team_helper"],
      ["deeper", "team_deeper"],
      ["shared", "team_shared"],
    ] as const)
      await caller().workflows.save({
        entry: "workflow.yaml",
        files: { "workflow.yaml": says(name, state) },
      });
    const nested = tarGz([
      {
        path: "manifest.yaml",
        content: MANIFEST.replace("speckit", "nested").replace(
          "  - specify\n",
          "  - main\n  - helper\n  - deeper\n",
        ),
      },
      // helper and deeper are the pack's; shared only the team's; speckit/specify another pack's.
      {
        path: "workflows/main.yaml",
        content: calls("main", ["helper", "shared", "speckit/specify"]),
      },
      { path: "workflows/helper.yaml", content: calls("helper", ["deeper"]) },
      { path: "workflows/deeper.yaml", content: says("deeper", "pack_deeper") },
    ]);
    const installed = await caller().packs.install({ archive: b64(nested) });
    const main = installed.workflows.find((w) => w.name === "nested/main")!;
    const { id } = await caller().runs.start({ workflowId: main.id, inputs: {} });
    const run = await runEnded(() => caller().runs.get({ id }), "nested run", 60_000);
    const trace = JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorMessage]));
    expect(run.status, trace).toBe("succeeded");
    const ran = run.steps.filter((s) => s.status === "succeeded").map((s) => s.stdout.trim());
    expect(ran).toEqual(
      expect.arrayContaining(["pack_deeper", "team_shared", "v2 says the new prompt"]),
    );
    expect(ran).not.toContain("team_helper");
    expect(ran).not.toContain("team_deeper");
    // The team's own workflows keep resolving among the team's.
    await caller().workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": calls("mine-calls", ["helper"]) },
    });
    const own = (await caller().workflows.list()).find((w) => w.name === "mine-calls")!;
    expect(await runOnce(own.id, undefined, "team_helper")).toBe("team_helper");
    await caller().packs.remove({ name: "nested" });
  }, 120_000);

  it("gives two concurrent first installs of one pack a CONFLICT, not a database error", async () => {
    const archive = b64(goodPack(MANIFEST.replace("speckit", "twice")));
    for (let attempt = 0; attempt < 3; attempt++) {
      const results = await Promise.allSettled([
        caller().packs.install({ archive }),
        caller().packs.install({ archive }),
      ]);
      const failed = results.filter((r) => r.status === "rejected");
      expect(results.some((r) => r.status === "fulfilled")).toBe(true);
      for (const f of failed) {
        expect(f.reason).toMatchObject({ code: "CONFLICT" });
        expect((f.reason as Error).message).toMatch(/pack "twice" is being installed or updated/);
      }
      const pack = await caller().packs.get({ name: "twice" });
      expect(pack.versions.length).toBe(2 - failed.length);
      await caller().packs.remove({ name: "twice" });
      if (failed.length > 0) return;
    }
    throw new Error("the two installs never met: both ran one after the other");
  }, 120_000);

  it("installs from a GitHub release only when the archive's SHA-256 matches", async () => {
    releases.set("v1.0.0", { archive: goodPack(MANIFEST.replace("speckit", "gh-pack")) });
    const installed = await caller().packs.install({ source: "acme/speckit" });
    expect(installed).toMatchObject({ name: "gh-pack", version: "1.0.0" });
    expect((await caller().packs.get({ name: "gh-pack" })).source).toBe("acme/speckit");
    expect(await runOnce(installed.workflows[0]!.id)).toBe("hello from the pack prompt");

    releases.set("v2.0.0", {
      archive: goodPack(MANIFEST.replace("speckit", "gh-pack").replace("1.0.0", "2.0.0")),
      checksum: "f".repeat(64),
    });
    await expect(caller().packs.install({ source: "acme/speckit@2.0.0" })).rejects.toMatchObject({
      cause: { code: "USER.PACK.CHECKSUM_MISMATCH" },
    });
    expect((await caller().packs.get({ name: "gh-pack" })).version).toBe("1.0.0");
    await expect(caller().packs.install({ source: "acme/speckit@9.9.9" })).rejects.toMatchObject({
      cause: { code: "USER.PACK.RELEASE_NOT_FOUND" },
    });
    await expect(caller().packs.install({ source: "acme/speckit@>=1.0" })).rejects.toMatchObject({
      cause: { code: "USER.PACK.INVALID_SOURCE" },
    });
    // Without the operator's allow-list the stand-in's private address is refused.
    await expect(
      dashboardCaller(
        { ...stack!, egress: webEgress(parseEgressAllowList(""), `${githubBase}/api`) },
        stack!.adminId,
      ).packs.install({ source: "acme/speckit" }),
    ).rejects.toMatchObject({ cause: { code: "USER.EGRESS.DENIED" } });
  }, 120_000);

  it("reads a private repository's release with a team secret as the token, sent to the GitHub API only", async () => {
    await caller().variables.set({
      name: "GH_PACKS",
      value: PRIVATE_TOKEN,
      secret: true,
      lanes: ["default"],
    });
    // Without a token, a private repository's release is not found (GitHub answers 404).
    await expect(caller().packs.install({ source: "acme/private" })).rejects.toMatchObject({
      cause: { code: "USER.PACK.RELEASE_NOT_FOUND" },
    });
    seenAuth.api.length = 0;
    seenAuth.asset.length = 0;
    const installed = await caller().packs.install({
      source: "acme/private",
      tokenSecret: "GH_PACKS",
    });
    expect(installed).toMatchObject({ name: "private-pack", version: "1.0.0" });
    expect(await runOnce(installed.workflows[0]!.id)).toBe("hello from the pack prompt");
    // The API had the token; the signed download addresses it redirected to did not.
    expect(seenAuth.api.length).toBeGreaterThan(0);
    expect(seenAuth.api.every((a) => a === `Bearer ${PRIVATE_TOKEN}`)).toBe(true);
    expect(seenAuth.asset).toEqual([null, null]);
    // Stored nowhere: not with the pack, nor in the audit log.
    expect(JSON.stringify(await caller().packs.get({ name: "private-pack" }))).not.toContain(
      PRIVATE_TOKEN,
    );
    const log = await listAuditLog(stack!.db, {
      teamId: stack!.teamId,
      actionPrefix: "pack.",
      limit: 50,
    });
    expect(JSON.stringify(log)).not.toContain(PRIVATE_TOKEN);
    // Only a secret, named as the team has it, and only with a source.
    await caller().variables.set({ name: "GH_PLAIN", value: "x", secret: false });
    for (const tokenSecret of ["GH_PLAIN", "GH_NOPE"])
      await expect(
        caller().packs.install({ source: "acme/private", tokenSecret }),
      ).rejects.toMatchObject({
        cause: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "tokenSecret" } },
      });
    await expect(
      caller().packs.install({ archive: b64(goodPack()), tokenSecret: "GH_PACKS" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await caller().packs.remove({ name: "private-pack" });
  }, 120_000);

  it("keeps a pack whose workflows sit in a lane a member may not save in out of the member's reach", async () => {
    await caller().lanes.create({
      name: "ops",
      description: "",
      saveRoles: ["admin", "owner"],
      startRoles: ["admin", "owner"],
    });
    const memberId = await addMember(stack!.db, stack!.teamId, {
      email: "packs-member@test.local",
      name: "Member",
      role: "member",
    });
    const asMember = dashboardCaller(stack!, memberId);
    const opsPack = (lane: string) =>
      tarGz([
        { path: "manifest.yaml", content: MANIFEST.replace("name: speckit", "name: opspack") },
        {
          path: "workflows/specify.yaml",
          content: own("specify").replace("states:", `${lane}states:`),
        },
      ]);
    const installed = await caller().packs.install({ archive: b64(opsPack("lane: ops\n")) });
    const [workflow] = installed.workflows;

    // An update that would move the workflow to the default lane, and a removal, are the
    // admin's: as saving or deleting that workflow would be.
    const moved = asMember.packs.install({ archive: b64(opsPack("")) });
    await expect(moved).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(moved).rejects.toThrow(/workflow "opspack\/specify" is in lane "ops"/);
    await expect(asMember.packs.remove({ name: "opspack" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const still = await caller().workflows.get({ id: workflow!.id });
    expect([still.lane, still.version]).toEqual(["ops", 1]);
    expect((await caller().packs.get({ name: "opspack" })).versions.length).toBe(1);

    expect((await caller().packs.remove({ name: "opspack" })).workflowsArchived).toBe(1);
  }, 60_000);

  it("refuses to remove a pack while a run of one of its workflows has not ended", async () => {
    const sleepy = tarGz([
      { path: "manifest.yaml", content: MANIFEST.replace("speckit", "sleepy") },
      {
        path: "workflows/specify.yaml",
        content: says("specify", "nap").replace("echo nap", "sleep 30"),
      },
    ]);
    const [workflow] = (await caller().packs.install({ archive: b64(sleepy) })).workflows;
    const { id } = await caller().runs.start({ workflowId: workflow!.id, inputs: {} });
    const refused = caller().packs.remove({ name: "sleepy" });
    await expect(refused).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(refused).rejects.toThrow(/"sleepy\/specify" has a run that has not ended/);
    expect((await caller().packs.get({ name: "sleepy" })).workflows).toHaveLength(1);
    await caller().runs.cancel({ id });
    await runEnded(() => caller().runs.get({ id }), "cancelled run", 60_000);
    expect((await caller().packs.remove({ name: "sleepy" })).workflowsArchived).toBe(1);
  }, 120_000);

  it("removes a pack, archiving its workflows, with an audit entry each time; viewers only read", async () => {
    const viewerId = await addMember(stack!.db, stack!.teamId, {
      email: "viewer@test.local",
      name: "Viewer",
      role: "viewer",
    });
    const asViewer = dashboardCaller(stack!, viewerId);
    expect((await asViewer.packs.list()).length).toBe(2);
    await expect(asViewer.packs.install({ archive: b64(goodPack()) })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(asViewer.packs.remove({ name: "speckit" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });

    expect(await caller().packs.remove({ name: "speckit" })).toEqual({
      name: "speckit",
      workflowsArchived: 1,
    });
    expect((await caller().workflows.list()).some((w) => w.name === "speckit/specify")).toBe(false);
    await expect(caller().packs.get({ name: "speckit" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const log = await listAuditLog(stack!.db, {
      teamId: stack!.teamId,
      actionPrefix: "pack.",
      limit: 20,
    });
    const actions = log.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["pack.install", "pack.update", "pack.remove"]));
    // Installed again, its workflow comes back.
    const again = await caller().packs.install({ archive: b64(goodPack()) });
    expect(await runOnce(again.workflows[0]!.id)).toBe("hello from the pack prompt");
  }, 120_000);
});

/**
 * Operation states through the real worker, whose egress allow-list names only 127.0.0.2
 * (127.0.0.1 stands for the internal network): http.request with its outputs, size cap,
 * timeout and retryable statuses; notify.send's webhook and desktop backends; AWF's github
 * operations against a stand-in of the GitHub REST API (SWITCHYARD_GITHUB_API_URL), with
 * the token from a team secret variable and the repository from the workspace's remote. A
 * private address is refused, and secrets sent in headers never reach what is stored.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { listRunEventsAfter, saveWorkflowVersion } from "@switchyard/db";
import { githubStandIn, json, standIn, type Seen } from "@switchyard/testing/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";

const API_TOKEN = "sk-operation-secret-7f3a9c21";
const GITHUB_TOKEN = "ghp_standin-token-0c9d8e7f6a5b";
let stack: RunStack;
let outside: Server;
let inside: Server;
let base: string;
let insideUrl: string;
const insideHits: string[] = [];
const seen: Seen[] = [];
let flaky = 0;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () =>
  dashboardCaller(
    { ...stack, keyring, egress: webEgress(parseEgressAllowList("127.0.0.0/8")) },
    stack.adminId,
  );

const github = githubStandIn(GITHUB_TOKEN, "/gh");

beforeAll(async () => {
  outside = await standIn("127.0.0.2", (req, res) => {
    seen.push(req);
    if (req.url.startsWith("/gh/")) return github(req, res);
    switch (req.url) {
      case "/echo":
        res.setHeader("x-multi", ["a", "b"]);
        return json(res, 200, {
          method: req.method,
          auth: req.headers.authorization,
          body: req.body,
        });
      case "/flaky":
        return json(res, ++flaky < 2 ? 503 : 200, { attempt: flaky });
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end("x".repeat(1536 * 1024));
      case "/slow":
        return setTimeout(() => json(res, 200, {}), 5_000);
      case "/hook":
      case "/hook-failed":
        return json(res, 200, { ok: true });
      default:
        return json(res, 404, {});
    }
  });
  inside = await standIn("127.0.0.1", (req, res) => {
    insideHits.push(req.url);
    json(res, 200, {});
  });
  base = `http://127.0.0.2:${(outside.address() as AddressInfo).port}`;
  insideUrl = `http://127.0.0.1:${(inside.address() as AddressInfo).port}/internal`;
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: "127.0.0.2/32",
    SWITCHYARD_GITHUB_API_URL: `${base}/gh`,
  });
  for (const [name, value] of [
    ["API_TOKEN", API_TOKEN],
    ["GITHUB_TOKEN", GITHUB_TOKEN],
  ] as const)
    await caller().variables.set({ name, value, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  for (const s of [outside, inside]) await new Promise((r) => s?.close(r));
});

const run = async (name: string, yaml: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": yaml },
  });
  const { id } = await caller().runs.start({ workflowId });
  const ended = await runEnded(() => caller().runs.get({ id }), `run ${name}`, 60_000);
  const events = await listRunEventsAfter(stack.db, stack.teamId, id, 0, 5000);
  return { ...ended, events };
};

const ENDS = `  done: { type: terminal, status: success }
  error: { type: terminal, status: failure }
`;

describe("operation states in the worker", () => {
  it("makes an http request, keeps AWF's outputs and scrubs the secret it sent", async () => {
    const r = await run(
      "http-get",
      `name: http-get
env: [API_TOKEN]
states:
  initial: fetch
  fetch:
    type: operation
    operation: http.request
    inputs:
      method: post
      url: "${base}/echo"
      headers:
        Authorization: "Bearer {{.env.API_TOKEN}}"
      body: 'token={{.env.API_TOKEN}}'
      timeout: 10
    on_success: show
    on_failure: error
  show:
    type: step
    command: |
      echo "status={{.states.fetch.Response.status_code}}"
      echo "type={{.states.fetch.Response.headers.Content-Type}}"
      echo "multi={{.states.fetch.Response.headers.X-Multi}}"
    on_success: done
${ENDS}`,
    );
    expect(r.status, JSON.stringify(r.steps)).toBe("succeeded");
    const echo = seen.find((s) => s.url === "/echo")!;
    expect(echo.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
    expect(echo.body).toBe(`token=${API_TOKEN}`);
    const fetch = r.steps.find((s) => s.stateName === "fetch")!;
    expect(fetch.stepType).toBe("operation");
    expect(fetch.provider).toBe("http.request");
    expect(fetch.stdout).toBe(`POST ${base}/echo → 200`);
    const output = JSON.parse(fetch.output) as Record<string, unknown>;
    expect(output).toMatchObject({ status_code: 200, body_truncated: false });
    expect(output.headers).toMatchObject({ "Content-Type": "application/json", "X-Multi": "a, b" });
    const show = r.steps.find((s) => s.stateName === "show")!;
    expect(show.stdout).toBe("status=200\ntype=application/json\nmulti=a, b\n");
    const stored = JSON.stringify(r);
    expect(stored).not.toContain(API_TOKEN);
    expect(stored).toContain("Bearer [REDACTED]");
  }, 90_000);

  it("retries a listed status, truncates at 1 MB and times out", async () => {
    const r = await run(
      "http-edges",
      `name: http-edges
states:
  initial: flaky
  flaky:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "${base}/flaky", retryable_status_codes: [503] }
    retry: { max_attempts: 3, initial_delay: 10ms }
    on_success: big
    on_failure: error
  big:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "${base}/big" }
    on_success: slow
    on_failure: error
  slow:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "${base}/slow", timeout: 1 }
    on_success: done
    on_failure: error
${ENDS}`,
    );
    expect(r.status).toBe("failed");
    const flakySteps = r.steps.filter((s) => s.stateName === "flaky");
    expect(flakySteps.map((s) => [s.attempt, s.status])).toEqual([
      [1, "failed"],
      [2, "succeeded"],
    ]);
    expect(flakySteps[0]!.errorCode).toBe("EXECUTION.OPERATION_FAILED");
    const big = JSON.parse(r.steps.find((s) => s.stateName === "big")!.output) as {
      body: string;
      body_truncated: boolean;
    };
    expect(big.body_truncated).toBe(true);
    expect(big.body.length).toBe(1024 * 1024);
    const slow = r.steps.find((s) => s.stateName === "slow")!;
    expect(slow.status).toBe("failed");
    expect(slow.errorCode).toBe("EXECUTION.TIMEOUT");
  }, 90_000);

  it("refuses a private address without the allow-list, the request never sent", async () => {
    const r = await run(
      "http-ssrf",
      `name: http-ssrf
states:
  initial: probe
  probe:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "${insideUrl}" }
    on_success: done
    on_failure: error
${ENDS}`,
    );
    expect(r.status).toBe("failed");
    const probe = r.steps.find((s) => s.stateName === "probe")!;
    expect(probe.errorCode).toBe("USER.EGRESS.DENIED");
    expect(probe.errorMessage).toContain("127.0.0.1");
    expect(insideHits).toEqual([]);
  }, 90_000);

  it("posts AWF's webhook payload and records a desktop notification as a run event", async () => {
    const r = await run(
      "notify",
      `name: notify
states:
  initial: build
  build: { type: step, command: echo built, on_success: hook }
  hook:
    type: step
    operation: notify.send
    inputs:
      backend: webhook
      webhook_url: "${base}/hook"
      message: "{{workflow.name}} completed"
    on_success: desk
    on_failure: error
  desk:
    type: operation
    operation: notify.send
    inputs:
      backend: desktop
      title: "Build Complete"
      message: "finished: {{.states.build.Output}}"
      priority: high
    on_success: deploy
    on_failure: error
  deploy: { type: step, command: "exit 3", on_success: done, on_failure: alarm }
  alarm:
    type: operation
    operation: notify.send
    inputs:
      backend: webhook
      webhook_url: "${base}/hook-failed"
      message: "deploy failed"
    on_success: done
    on_failure: error
${ENDS}`,
    );
    expect(r.status, JSON.stringify(r.steps)).toBe("succeeded");
    const hook = seen.find((s) => s.url === "/hook")!;
    const payload = JSON.parse(hook.body) as Record<string, unknown>;
    // The run's status as far as it went: every state so far succeeded...
    expect(payload).toMatchObject({
      workflow: "notify",
      status: "success",
      message: "notify completed",
      outputs: { build: "built" },
    });
    // ...and once one failed (the webhook reached through on_failure), a failure.
    const alarm = JSON.parse(seen.find((s) => s.url === "/hook-failed")!.body) as Record<
      string,
      unknown
    >;
    expect(alarm).toMatchObject({
      workflow: "notify",
      status: "failure",
      message: "deploy failed",
    });
    expect(Object.keys(payload)).toEqual(
      expect.arrayContaining(["workflow", "status", "duration", "message", "outputs"]),
    );
    expect(JSON.parse(r.steps.find((s) => s.stateName === "hook")!.output)).toEqual({
      backend: "webhook",
      status: "200",
      response: '{"ok":true}',
    });
    const desktop = r.events.find((e) => e.type === "notify.desktop");
    expect(desktop?.payload).toEqual({
      state: "desk",
      title: "Build Complete",
      message: "finished: built",
      priority: "high",
    });
  }, 90_000);

  it("runs AWF's github operations against the API the operator names, repo from the workspace remote", async () => {
    const r = await run(
      "github-ops",
      `name: github-ops
env: [GITHUB_TOKEN]
states:
  initial: remote
  remote:
    type: step
    command: mkdir -p .git && printf '[core]\\n\\tbare = false\\n[remote "origin"]\\n\\turl = git@github.com:acme/widgets.git\\n' > .git/config
    on_success: issue
  issue:
    type: operation
    operation: github.get_issue
    inputs: { number: 42 }
    on_success: pr
    on_failure: error
  pr:
    type: operation
    operation: github.get_pr
    inputs: { number: "7", repo: acme/widgets, fields: [headRefName, mergeable] }
    on_success: create_pr
    on_failure: error
  create_pr:
    type: operation
    operation: github.create_pr
    inputs: { title: "feat: login", head: feature/login, base: main, draft: true }
    on_success: create_issue
    on_failure: error
  create_issue:
    type: operation
    operation: github.create_issue
    inputs: { title: "{{.states.issue.Response.title}} again", labels: [bug] }
    on_success: comment
    on_failure: error
  comment:
    type: operation
    operation: github.add_comment
    inputs: { number: 42, body: "seen" }
    on_success: comments
    on_failure: error
  comments:
    type: operation
    operation: github.list_comments
    inputs: { number: 42 }
    on_success: label
    on_failure: error
  label:
    type: operation
    operation: github.batch
    inputs:
      strategy: best_effort
      concurrency: 2
      operations:
        - { name: github.add_labels, number: 1, labels: [reviewed] }
        - { name: github.add_labels, number: 2, labels: [reviewed] }
    on_success: done
    on_failure: error
${ENDS}`,
    );
    expect(r.status, JSON.stringify(r.steps)).toBe("succeeded");
    const out = (state: string) =>
      JSON.parse(r.steps.find((s) => s.stateName === state)!.output) as Record<string, unknown>;
    expect(out("issue")).toEqual({
      number: 42,
      title: "Login fails",
      body: "Steps to reproduce",
      state: "open",
      labels: ["bug"],
    });
    expect(out("pr")).toEqual({ headRefName: "feature/login", mergeable: true });
    expect(out("create_pr")).toEqual({
      number: 7,
      url: "https://github.example/acme/widgets/pull/7",
      already_exists: true,
    });
    expect(out("create_issue")).toEqual({
      number: 43,
      url: "https://github.example/acme/widgets/issues/43",
    });
    expect(out("comment")).toEqual({ comment_id: 9001, url: "https://github.example/c/9001" });
    expect(out("comments")).toMatchObject({
      total: 2,
      comments: [{ author: "ana" }, { author: "bo" }],
    });
    expect(out("label")).toMatchObject({
      total: 2,
      succeeded: 1,
      failed: 1,
      results: [
        { name: "github.add_labels", success: true, outputs: { labels: ["bug", "reviewed"] } },
        { name: "github.add_labels", success: false },
      ],
    });
    const created = seen.find(
      (s) => s.method === "POST" && s.url === "/gh/repos/acme/widgets/issues",
    )!;
    expect(JSON.parse(created.body)).toEqual({ title: "Login fails again", labels: ["bug"] });
    expect(r.steps.find((s) => s.stateName === "issue")!.stdout).toBe(
      "GET /repos/acme/widgets/issues/42 → 200",
    );
    expect(JSON.stringify(r)).not.toContain(GITHUB_TOKEN);
  }, 120_000);
});

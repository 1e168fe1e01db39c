/**
 * Some of the AWF guide's examples (parse/fixtures/awf-guide/) run end to end and do what
 * the guide says: real shells, templates expanded from the fixtures' library, and the
 * built-in operations over loopback egress against a local stand-in for the APIs they call.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackEgressFetch } from "@switchyard/testing/egress";
import { localRunner, memoryEventSink } from "@switchyard/testing/workflow";
import { createOperationPort } from "../../operations/operation-port";
import type { DesktopNotification } from "../../operations/notify-send";
import { Scrubber } from "../../secrets/scrubber";
import { bundleReader } from "../parse/file-references";
import { parseWorkflow } from "../parse/parse-workflow";
import { validateWorkflow } from "../parse/validate-workflow";
import { guideLibrary, guideSource } from "../parse/testing/awf-guide";
import type { ProcessRunner } from "../model/engine-ports";
import { runWorkflow } from "./run-workflow";

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };

let server: Server;
let base: string;
const seen: Seen[] = [];
let invoiceTries = 0;

const reply = (req: Seen): [number, unknown] => {
  const route = `${req.method} ${req.url}`;
  switch (route) {
    case "GET /status":
      return [200, { state: "green" }];
    case "GET /accounts/a-17":
    case "GET /healthz":
    case "GET /ping":
      return [200, { ok: true }];
    case "POST /index.json":
      return [200, { files: 3 }];
    case "POST /invoices":
      // the first try is refused with a status the step lists as retryable
      return ++invoiceTries === 1 ? [503, { busy: true }] : [201, { id: 9 }];
    case "POST /releases":
      return [200, { received: true }];
    case "GET /repos/acme/widgets/issues/7":
      return [200, { number: 7, title: "Login flakes on Safari", state: "open", labels: [] }];
    default:
      return [404, { route }];
  }
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(entry);
      const [status, json] = reply(entry);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs a guide fixture, its fixed hosts pointed at the stand-in, in a fresh workspace. */
const runGuide = async (
  file: string,
  inputs: Record<string, unknown> = {},
  scripts: Record<string, string> = {},
) => {
  const source = guideSource(file).replace(/https:\/\/[a-z.]+\.example\.(org|net)/g, base);
  const parsed = parseWorkflow(source, file, undefined, { templates: guideLibrary });
  expect(parsed.errors.map((e) => e.message)).toEqual([]);
  const workspace = mkdtempSync(path.join(tmpdir(), "awf-guide-"));
  for (const [name, text] of Object.entries(scripts)) {
    writeFileSync(path.join(workspace, name), text);
    chmodSync(path.join(workspace, name), 0o755);
  }
  const inner = localRunner();
  const runProcess: ProcessRunner = (req) =>
    inner({ ...req, cwd: path.resolve(workspace, req.cwd ?? ".") });
  const desktop: DesktopNotification[] = [];
  const outcome = await runWorkflow(parsed.workflow!, {
    runProcess,
    signal: new AbortController().signal,
    scrubber: new Scrubber(),
    inputs,
    events: memoryEventSink().sink,
    operations: createOperationPort({
      fetch: loopbackEgressFetch("operation"),
      notifyFetch: loopbackEgressFetch("notification"),
      githubApiUrl: base,
      gitRemote: async () => "git@github.com:acme/widgets.git",
      desktop: (_request, notification) => void desktop.push(notification),
    }),
  });
  return { outcome, results: outcome.checkpoint.results, desktop };
};

describe("AWF guide examples, run", () => {
  it("http.request: the response's status and body reach a later shell step", async () => {
    const { outcome, results } = await runGuide("plugins-http-response.yaml", {
      endpoint: `${base}/status`,
      key: "k-123",
    });
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    expect(results.show?.output).toBe('HTTP 200 said {"state":"green"}');
    expect(seen.find((s) => s.url === "/status")?.headers.authorization).toBe("Bearer k-123");
  });

  it("http.request: a retryable status is tried again, the POST body rendered", async () => {
    const { outcome } = await runGuide("plugins-http.yaml", {
      account: "a-17",
      bearer: "b-9",
      label: "March",
    });
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    const posts = seen.filter((s) => s.url === "/invoices");
    expect(posts).toHaveLength(2);
    expect(JSON.parse(posts[1]!.body)).toEqual({ label: "March", account: "a-17" });
    expect(posts[1]!.headers["content-type"]).toBe("application/json");
  });

  it("notify.send written as type: step posts the webhook with the earlier step's output", async () => {
    const { outcome } = await runGuide(
      "plugins-notify-step-form.yaml",
      {},
      { "release.sh": "#!/bin/sh\necho v4.2 out\n" },
    );
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    const hook = JSON.parse(seen.find((s) => s.url === "/releases")!.body) as {
      workflow: string;
      message: string;
    };
    expect(hook).toMatchObject({ workflow: "release-and-tell", message: "Released: v4.2 out" });
  });

  it("notify.send to desktop renders the workflow namespace", async () => {
    const { outcome, desktop } = await runGuide("plugins-notify.yaml");
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    expect(desktop).toHaveLength(1);
    expect(desktop[0]).toMatchObject({ title: "Nightly build" });
    expect(desktop[0]!.message).toMatch(/^ping-me took \d+s$/);
  });

  it("github.get_issue finds the repository from the origin remote", async () => {
    const { outcome, results } = await runGuide("plugins-github.yaml");
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    expect(results.use?.output).toBe("Login flakes on Safari");
  });

  it("a template used twice runs with each state's parameters and the defaults", async () => {
    const { outcome, results } = await runGuide("templates-api-check.yaml", { base });
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    expect(results.ping?.output).toBe('{"ok":true}');
    expect(results.pull?.output).toBe('{"files":3}');
    const pull = seen.find((s) => s.url === "/index.json");
    expect(pull?.headers.accept).toBe("application/json");
  });

  it("inputs: a default fills an optional input the run was not given", async () => {
    const { outcome, results } = await runGuide(
      "inputs-configure.yaml",
      { verbosity: "chatty" },
      { "tune.sh": '#!/bin/sh\necho "$@"\n' },
    );
    expect(outcome).toMatchObject({ status: "succeeded", finalState: "done" });
    expect(results.apply?.output).toBe("--verbosity=chatty --pool=25");
  });
});

describe("AWF guide examples, saved with their bundle", () => {
  it("skills by name and by relative path are found; an absolute path is not", async () => {
    const skill = "---\nname: x\n---\nFollow the house rules.\n";
    const files = {
      "agent-skills.yaml": guideSource("agent-skills.yaml"),
      ".awf/skills/rust-style/SKILL.md": skill,
      ".awf/skills/review-checklist/SKILL.md": skill,
      ".agents/skills/threat-model/SKILL.md": skill,
      ".claude/skills/hot-paths/SKILL.md": skill,
      "team-skills/licences/SKILL.md": skill,
    };
    const result = await validateWorkflow(files["agent-skills.yaml"], "agent-skills.yaml", {
      files: bundleReader(files, "agent-skills.yaml"),
    });
    expect(result.errors.map((e) => [e.code, e.location?.path])).toEqual([
      ["USER.SKILL.NOT_FOUND", "states.by_path.skills[1].path"],
    ]);
  });
});

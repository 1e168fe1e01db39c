/**
 * `switchyard run` runs operation states and agent skills as a person on a laptop runs them:
 * uid 65534 (when the suite is root) with a HOME of its own, through the real bin.
 * Operations go over the person's own network, loopback included: http.request against a
 * server on 127.0.0.1 (its status, headers, body and Output reach a later step),
 * notify.send's webhook with AWF's payload and its desktop backend as a line on stderr, and
 * a github operation against a local stand-in of GitHub's API, with the person's
 * GITHUB_TOKEN (or `gh auth token`) and the repository from the workspace's remote; secrets
 * never printed. Skills are found in the workflow folder and the person's HOME in AWF's
 * order, and reach the model before the prompt exactly as core injects them; a missing one
 * is refused at its line before any step, as is one reached through a symlink.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { githubStandIn, json, standIn, type Seen } from "@switchyard/testing/operations";
import { buildCli, cliForOthers, PERSON, runAsPerson } from "@switchyard/testing/sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

/** The person's secrets (an API's, GitHub's, the model's): never in what is printed. */
const [API_TOKEN, GITHUB_TOKEN, OPENAI_KEY] = [
  "sk-laptop-api-4b7e21c9d0",
  "ghp_laptop-token-8a3c5e7f9b1d",
  "sk-laptop-model-2f6d8b0a4c",
];

/** The suite's folder (with the bin, HOME and the workflows) and the server on loopback. */
let [base, bin, home, flows, url] = ["", "", "", "", ""];
let server: Server | undefined;
const seen: Seen[] = [];
let model: ScriptedModel | undefined;

/** A folder the person owns (files written into it by the suite are given to them too). */
const own = (dir: string) => {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chownSync(dir, PERSON, PERSON);
  return dir;
};

/** Writes `text` at `file` (its folders made), all of it the person's. */
const put = (file: string, text: string) => {
  const parts = path.relative(base, path.dirname(file)).split(path.sep);
  for (let i = 1; i <= parts.length; i++) own(path.join(base, ...parts.slice(0, i)));
  writeFileSync(file, text, { mode: 0o644 });
  chownSync(file, PERSON, PERSON);
  return file;
};

/** flows/<name>.yaml: the workflow laptop-<name> with these states. */
const flow = (name: string, states: string) =>
  put(path.join(flows, `${name}.yaml`), `name: laptop-${name}\n${states}`);

const github = githubStandIn(GITHUB_TOKEN, "/gh");

beforeAll(async () => {
  await buildCli();
  base = mkdtempSync(path.join(tmpdir(), "sy-run-ops-skills-"));
  chmodSync(base, 0o755);
  bin = cliForOthers(base);
  home = own(path.join(base, "home"));
  flows = own(path.join(base, "flows"));
  server = await standIn("127.0.0.1", (req, res) => {
    seen.push(req);
    if (req.url.startsWith("/gh/")) return github(req, res);
    if (req.url === "/echo") {
      res.setHeader("x-multi", ["a", "b"]);
      return json(res, 201, { method: req.method, auth: req.headers.authorization });
    }
    if (req.url === "/hook") return json(res, 200, { received: true });
    return json(res, 404, {});
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);
afterEach(async () => {
  await model?.close();
  model = undefined;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (base) rmSync(base, { recursive: true, force: true });
});

const run = (
  file: string,
  workspace: string,
  env: Record<string, string> = {},
  args: string[] = [],
) =>
  runAsPerson({
    bin,
    args: ["run", file, ...args],
    cwd: workspace,
    env: { HOME: home, ...env },
    how: { stdin: "" },
    timeoutMs: 240_000,
  });

describe("operations", () => {
  it("runs http.request over loopback: status, headers, body and Output reach the next step, the token unprinted", async () => {
    const file = flow(
      "http",
      `env: [API_TOKEN]
states:
  initial: call
  call:
    type: operation
    operation: http.request
    inputs:
      method: POST
      url: ${url}/echo
      headers: { Authorization: "Bearer {{.env.API_TOKEN}}" }
      body: '{"q":1}'
    on_success: show
  show:
    type: step
    command: |
      echo "status={{.states.call.Response.status_code}} multi={{.states.call.Response.headers.X-Multi}} body={{.states.call.Response.body}}"
      echo "output={{.states.call.Output}}"
    on_success: done
  done: { type: terminal }
`,
    );
    const ws = own(path.join(base, "ws-http"));
    const r = await run(file, ws, { API_TOKEN });
    expect(r.code, r.err).toBe(0);
    const echo = seen.find((s) => s.url === "/echo");
    expect(echo?.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
    expect(echo?.body).toBe('{"q":1}');
    expect(r.out).toContain("status=201 multi=a, b body=");
    expect(r.out).toContain(`POST ${url}/echo → 201`);
    const output = /^output=(.*)$/m.exec(r.out)?.[1];
    const parsed = JSON.parse(output ?? "null") as Record<string, unknown>;
    expect(parsed).toMatchObject({ status_code: 201, body_truncated: false });
    expect(JSON.parse(parsed.body as string)).toMatchObject({ method: "POST" });
    // The token came back in the body: what was printed has it scrubbed.
    expect(r.out + r.err).not.toContain(API_TOKEN);
  });

  it("sends no request under --no-network: the operation fails, saying why", async () => {
    const before = seen.length;
    const ws = own(path.join(base, "ws-offline"));
    const r = await run(path.join(flows, "http.yaml"), ws, { API_TOKEN }, ["--no-network"]);
    expect(r.code, r.err).not.toBe(0);
    expect(r.err).toContain("--no-network sends no requests of operation states");
    expect(seen.length).toBe(before);
  });

  it("sends notify.send's webhook with AWF's payload, and prints a desktop notification on stderr", async () => {
    const file = flow(
      "notify",
      `states:
  initial: build
  build: { type: step, command: echo built, on_success: hook }
  hook:
    type: operation
    operation: notify.send
    inputs:
      backend: webhook
      webhook_url: ${url}/hook
      title: Build
      priority: high
      message: "build said {{.states.build.Output}}"
    on_success: desk
  desk:
    type: operation
    operation: notify.send
    inputs: { backend: desktop, message: all done, title: Laptop }
    on_success: said
  said: { type: step, command: 'echo "desktop={{.states.desk.Response.response}}"', on_success: done }
  done: { type: terminal }
`,
    );
    const ws = own(path.join(base, "ws-notify"));
    const r = await run(file, ws);
    expect(r.code, r.err).toBe(0);
    const hook = seen.find((s) => s.url === "/hook");
    expect(hook?.method).toBe("POST");
    expect(hook?.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(hook?.body ?? "{}") as Record<string, unknown>;
    expect(payload).toMatchObject({
      workflow: "laptop-notify",
      status: "success",
      message: "build said built",
      title: "Build",
      priority: "high",
      outputs: { build: "built" },
    });
    expect(payload.duration).toMatch(/^\d+s$/);
    expect(r.err).toContain("🔔 [desk] Laptop (default): all done");
    expect(r.out).toContain("desktop=printed on stderr");
  });

  it("runs a github operation against the API named, with the person's token and the workspace's remote", async () => {
    const file = flow(
      "github",
      `states:
  initial: issue
  issue:
    type: operation
    operation: github.get_issue
    inputs: { number: 42 }
    on_success: show
  show:
    type: step
    command: echo "title={{.states.issue.Response.title}} labels={{.states.issue.Response.labels}}"
    on_success: done
  done: { type: terminal }
`,
    );
    const ws = own(path.join(base, "ws-github"));
    put(
      path.join(ws, ".git/config"),
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n',
    );
    const r = await run(file, ws, {
      GITHUB_TOKEN,
      SWITCHYARD_GITHUB_API_URL: `${url}/gh`,
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('title=Login fails labels=["bug"]');
    expect(seen.some((s) => s.url === "/gh/repos/acme/widgets/issues/42")).toBe(true);
    expect(r.out + r.err).not.toContain(GITHUB_TOKEN);
  });

  it("takes the token from `gh auth token` when GITHUB_TOKEN is not set, as AWF does", async () => {
    const fakeBin = own(path.join(base, "gh-bin"));
    put(
      path.join(fakeBin, "gh"),
      `#!/bin/sh\n[ "$1 $2" = "auth token" ] && echo ${GITHUB_TOKEN}\n`,
    );
    chmodSync(path.join(fakeBin, "gh"), 0o755);
    const ws = own(path.join(base, "ws-gh"));
    put(
      path.join(ws, ".git/config"),
      '[remote "origin"]\n\turl = https://github.com/acme/widgets\n',
    );
    const r = await run(path.join(flows, "github.yaml"), ws, {
      PATH: `${fakeBin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      SWITCHYARD_GITHUB_API_URL: `${url}/gh`,
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("title=Login fails");
    expect(r.out + r.err).not.toContain(GITHUB_TOKEN);
  });
});

describe("skills", () => {
  const agentFlow = (name: string, skills: string, first = "") =>
    `name: ${name}
states:
  initial: ${first ? "first" : "agent"}
${first}  agent:
    type: agent
    provider: openai_compatible
    prompt: Review the change.
    options: { base_url: "${model?.url ?? "http://127.0.0.1:9"}/v1", model: scripted-1 }
    skills:
${skills}    on_success: done
  done: { type: terminal }
`;

  it("injects skills from the workflow folder, the person's HOME and a path, in AWF's order, before the prompt", async () => {
    put(
      path.join(flows, ".awf/skills/review/SKILL.md"),
      "---\nname: review\ndescription: how we review\n---\n\nCheck error handling.\n",
    );
    put(path.join(flows, ".awf/skills/review/scripts/check.sh"), "#!/bin/sh\n");
    // Shadowed: the project's folder comes first.
    put(path.join(home, ".agents/skills/review/SKILL.md"), "Not this one.\n");
    put(path.join(home, ".claude/skills/house-style/SKILL.md"), "Write short sentences.\n");
    put(path.join(flows, "custom/audit/SKILL.md"), "Look for secrets.\n");
    model = await startScriptedModel({ host: "127.0.0.1", script: { turns: [{ text: "LGTM" }] } });
    const file = put(
      path.join(flows, "skills.yaml"),
      agentFlow(
        "laptop-skills",
        "      - review\n      - house-style\n      - path: ./custom/audit\n",
      ),
    );
    const ws = own(path.join(base, "ws-skills"));
    const r = await run(file, ws, { OPENAI_API_KEY: OPENAI_KEY });
    expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
    const prompt = model.requests.find((q) => q.view)?.view?.messagesText ?? "";
    const expected = [
      '<skill_content name="review">',
      "Check error handling.",
      "",
      `Skill directory: ${flows}/.awf/skills/review`,
      "Relative paths in this skill are relative to the skill directory.",
      "",
      "<skill_resources>",
      "  <file>scripts/check.sh</file>",
      "</skill_resources>",
      "</skill_content>",
      "",
      '<skill_content name="house-style">',
      "Write short sentences.",
      "",
      `Skill directory: ${home}/.claude/skills/house-style`,
      "Relative paths in this skill are relative to the skill directory.",
      "</skill_content>",
      "",
      '<skill_content name="audit">',
      "Look for secrets.",
      "",
      `Skill directory: ${flows}/custom/audit`,
      "Relative paths in this skill are relative to the skill directory.",
      "</skill_content>",
      "",
      "Review the change.",
    ].join("\n");
    expect(prompt).toContain(expected);
    expect(prompt).not.toContain("Not this one.");
  });

  it("refuses a missing skill at its line, before any step", async () => {
    const file = put(
      path.join(flows, "missing.yaml"),
      agentFlow(
        "laptop-missing",
        "      - review\n      - nowhere\n",
        "  first: { type: step, command: touch ran.txt, on_success: agent }\n",
      ),
    );
    const ws = own(path.join(base, "ws-missing"));
    const r = await run(file, ws, { OPENAI_API_KEY: OPENAI_KEY });
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:12:\\d+: USER\\.SKILL\\.NOT_FOUND .*'nowhere'`,
      ),
    );
    expect(r.err).toContain(`${home}/.claude/skills`);
    expect(existsSync(path.join(ws, "ran.txt"))).toBe(false);
  });

  it("refuses a skill reached through a symlink, at its line", async () => {
    put(path.join(base, "elsewhere/linked/SKILL.md"), "Outside.\n");
    own(path.join(home, ".claude/skills"));
    symlinkSync(path.join(base, "elsewhere/linked"), path.join(home, ".claude/skills/linked"));
    const file = put(
      path.join(flows, "linked.yaml"),
      agentFlow("laptop-linked", "      - linked\n"),
    );
    const ws = own(path.join(base, "ws-linked"));
    const r = await run(file, ws, { OPENAI_API_KEY: OPENAI_KEY });
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/:10:\d+: USER\.INPUT\.FILE_REFUSED .*symlink/);
    expect(r.err).not.toContain("Outside.");
  });
});

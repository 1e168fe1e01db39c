/**
 * `switchyard run` runs agent steps on a laptop as the worker does, through the real bin:
 * Claude Code (pinned, from the agents folder) in the step sandbox behind an in-process
 * model gateway, so the person's ANTHROPIC_API_KEY goes upstream from the gateway and never
 * into the sandbox; an openai_compatible step with OPENAI_API_KEY; both with their tools
 * through this CLI's own proxy, confined to the workspace, and the answer in the next state.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installedAgent } from "@switchyard/testing/agents";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
const build = path.resolve(import.meta.dirname, "../bin/build.mjs");
const AGENTS_DIR =
  process.env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
const claude = installedAgent(
  AGENTS_DIR,
  "claude",
  (line) => console.log(`[run-agents] ${line}`),
  process.env,
);
const KEY_HEAD = "sk-laptop";
const KEY = `${KEY_HEAD}-4be1c07d93a2f5`;

let ws: string;
let flows: string;
let model: ScriptedModel | undefined;

const cli = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: ws,
      env: { ...process.env, SWITCHYARD_SANDBOX: "", SWITCHYARD_AGENTS_DIR: AGENTS_DIR, ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });

const flow = (agent: string) => {
  const file = path.join(flows, "agent.yaml");
  writeFileSync(
    file,
    `name: laptop
states:
  initial: agent
  agent:
${agent}
    prompt: Write notes/hi.txt and answer.
    timeout: 2m
    on_success: echo
  echo:
    type: step
    command: echo "answer={{.states.agent.Output}}"
    on_success: done
  done: { type: terminal }
`,
  );
  return file;
};

const script = (tool: (name: string) => string) => ({
  turns: [
    {
      expect: { toolOffered: [tool("Write"), tool("Bash")] },
      toolCalls: [{ name: tool("Write"), arguments: { path: "notes/hi.txt", content: "hi\n" } }],
    },
    {
      expect: { lastToolResultContains: "notes/hi.txt" },
      toolCalls: [
        {
          name: tool("Bash"),
          arguments: {
            command: `env | grep -c '${KEY_HEAD}''-' || true; cat /etc/hostname >/dev/null; echo done`,
          },
        },
      ],
    },
    {
      expect: { lastToolResultContains: "0\ndone" },
      toolCalls: [{ name: tool("Read"), arguments: { path: "/etc/shadow" } }],
    },
    { expect: { lastToolResultContains: "outside the workspace" }, text: "wrote it" },
  ],
});

beforeAll(() => {
  const built = spawn(process.execPath, [build], { stdio: "ignore" });
  return new Promise<void>((resolve, reject) =>
    built.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`build exit ${code}`)))),
  );
}, 240_000);
beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-run-agent-ws-"));
  flows = mkdtempSync(path.join(tmpdir(), "sy-run-agent-flows-"));
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  rmSync(ws, { recursive: true, force: true });
  rmSync(flows, { recursive: true, force: true });
});

describe.skipIf(!claude)("claude", () => {
  it("runs Claude Code in the sandbox behind an in-process gateway, the key staying outside", async () => {
    model = await startScriptedModel({ script: script((n) => `mcp__switchyard__${n}`) });
    const r = await cli(
      [
        "run",
        flow("    type: agent\n    provider: claude\n    options: { model: claude-sonnet-4-5 }"),
      ],
      {
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: model.url,
      },
    );
    expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
    expect(model.failures).toEqual([]);
    expect(r.out).toContain("answer=wrote it");
    expect(readFileSync(path.join(ws, "notes/hi.txt"), "utf8")).toBe("hi\n");
    expect(r.err).toMatch(/⚒ \[agent\] Write/);
    expect(r.err).toMatch(/⚒ \[agent\] Read ✗/);
    const messages = model.requests.filter((q) => q.api === "anthropic");
    expect(messages.length).toBe(4);
    expect(
      messages.every((q) => q.auth.length === 1 && q.auth[0]!.fingerprint === fingerprint(KEY)),
    ).toBe(true);
    expect(r.out + r.err).not.toContain(KEY);
  }, 240_000);

  it("says which variable to set when ANTHROPIC_API_KEY is missing", async () => {
    const r = await cli(["run", flow("    type: agent\n    provider: claude")], {
      ANTHROPIC_API_KEY: "",
    });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("USER.PROVIDER.NOT_CONFIGURED");
    expect(r.err).toContain("ANTHROPIC_API_KEY");
  }, 120_000);
});

it("runs an openai_compatible step with OPENAI_API_KEY through the same proxy", async () => {
  model = await startScriptedModel({ script: script((n) => n) });
  const r = await cli(
    [
      "run",
      flow(
        `    type: agent\n    provider: openai_compatible\n    options: { model: m1, base_url: "${model.url}/v1" }`,
      ),
    ],
    {
      OPENAI_API_KEY: KEY,
    },
  );
  expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
  expect(model.failures).toEqual([]);
  expect(r.out).toContain("answer=wrote it");
  expect(readFileSync(path.join(ws, "notes/hi.txt"), "utf8")).toBe("hi\n");
  expect(model.requests.every((q) => q.auth.some((a) => a.fingerprint === fingerprint(KEY)))).toBe(
    true,
  );
  expect(r.out + r.err).not.toContain(KEY);
}, 120_000);

it.skipIf(process.getuid?.() !== 0)(
  "as root, never runs a copy another user left where copies are staged",
  async () => {
    // Another local user made the staging folder first and planted a launcher where the copy of this build goes.
    const tmp = mkdtempSync(path.join(tmpdir(), "sy-run-agent-tmp-"));
    chmodSync(tmp, 0o1777);
    const planted = path.join(
      tmp,
      "switchyard-agents",
      `.cli-${Math.floor(statSync(path.resolve(import.meta.dirname, "../dist/inputs.json")).mtimeMs)}`,
    );
    try {
      mkdirSync(planted, { recursive: true });
      writeFileSync(
        path.join(planted, "switchyard.mjs"),
        `process.stderr.write("PLANTED RAN\\n"); process.exit(3);\n`,
      );
      for (const p of [path.dirname(planted), planted, path.join(planted, "switchyard.mjs")]) {
        chownSync(p, 65534, 65534);
        chmodSync(p, 0o777);
      }
      model = await startScriptedModel({ script: script((n) => n) });
      const r = await cli(
        [
          "run",
          flow(
            `    type: agent\n    provider: openai_compatible\n    options: { model: m1, base_url: "${model.url}/v1" }`,
          ),
        ],
        {
          OPENAI_API_KEY: KEY,
          TMPDIR: tmp,
        },
      );
      expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
      expect(r.err).toMatch(/^sandbox: strict/m);
      expect(r.err).not.toContain("PLANTED");
      expect(readFileSync(path.join(ws, "notes/hi.txt"), "utf8")).toBe("hi\n");
      // The run's own staging folder went with it; the planted one is left as it was.
      expect(readdirSync(tmp)).toEqual(["switchyard-agents"]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
  120_000,
);

/**
 * `plugin_tools` in `switchyard run` through local connectors, as a person who is not root
 * (uid 65534 with a HOME of its own; the suite's own user when it is not root), through the
 * real bin at the default level: a stdio MCP server declared in `.switchyard/connectors.json`
 * next to the workflow (the real fixture server, bundled into the person's workspace) serves
 * an openai_compatible step (the scripted model on 127.0.0.1). Its exposed tools alone are
 * offered, named `<connector>_<tool>` (with `intercept_builtins: false` too); a call's
 * result reaches the model; the value its env took from the person's variables is printed
 * nowhere; the server runs sandboxed, with its declared variables only, and is gone when the
 * run ends or is stopped with Ctrl-C.
 * A plugin not declared, or an operation the server does not list, is refused at its line
 * before the first step runs.
 */
import { randomBytes } from "node:crypto";
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { build as bundle } from "esbuild";
import { startScriptedModel, type Rule, type ScriptedModel } from "@switchyard/scripted-model";
import { personFolder, openPersonCli, PERSON, startAsPerson } from "@switchyard/testing/sandbox";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

const FIXTURE = path.resolve(import.meta.dirname, "../../../test/fixtures/fixture-mcp-server.mjs");
const TOKEN = `notes-token-${randomBytes(8).toString("hex")}`;

let person: { base: string; bin: string };
let serverText: string;
let model: ScriptedModel | undefined;

beforeAll(async () => {
  person = await openPersonCli("sy-run-plugins-");
  // The fixture server with the MCP SDK in one file: the sandbox sees the workspace, not the checkout.
  const out = await bundle({
    entryPoints: [FIXTURE],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  serverText = out.outputFiles[0]!.text;
}, 300_000);
afterEach(async () => {
  await model?.close();
  model = undefined;
});
afterAll(() => {
  if (person) rmSync(person.base, { recursive: true, force: true });
});

/** The processes still running the server file `name`. */
const serversRunning = (name: string) =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(name);
      } catch {
        return false;
      }
    });

/**
 * A workflow folder with its connectors file and a workspace with the server in it:
 * `plugin_tools` of the agent step is `entry` (lines 15 and 16).
 */
const setup = (
  name: string,
  entry: {
    plugin: string;
    expose: string;
    interceptBuiltins?: boolean;
    toolTimeout?: string;
    serverArgs?: string[];
  },
  url: string,
  first = "touch ran.txt",
) => {
  const flows = path.join(person.base, `flows-${name}`);
  mkdirSync(path.join(flows, ".switchyard"), { recursive: true, mode: 0o755 });
  const server = `notes-${name}-${randomBytes(4).toString("hex")}.mjs`;
  writeFileSync(
    path.join(flows, ".switchyard/connectors.json"),
    `${JSON.stringify(
      {
        mcpServers: {
          notes: {
            command: "node",
            args: [`tools/${server}`, ...(entry.serverArgs ?? [])],
            env: { FIXTURE_TOKEN: "${NOTES_TOKEN}" },
          },
        },
      },
      null,
      2,
    )}\n`,
    { mode: 0o644 },
  );
  const file = path.join(flows, "wf.yaml");
  writeFileSync(
    file,
    `name: laptop-plugins
states:
  initial: first
  first:
    type: step
    command: ${first}
    on_success: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: PLUGIN-RUN use the notes
    options: { base_url: "${url}/v1", model: scripted-1 }
    mcp_proxy:
      plugin_tools:
        - plugin: ${entry.plugin}
          expose: [${entry.expose}]
${entry.interceptBuiltins === false ? "      intercept_builtins: false\n" : ""}${entry.toolTimeout ? `    tool_timeout: ${entry.toolTimeout}\n` : ""}    on_success: done
  done: { type: terminal }
`,
    { mode: 0o644 },
  );
  const workspace = personFolder(path.join(person.base, `ws-${name}`));
  personFolder(path.join(workspace, "tools"));
  writeFileSync(path.join(workspace, "tools", server), serverText, { mode: 0o644 });
  return { file, workspace, server };
};

const runAs = (workspace: string, file: string) =>
  startAsPerson(person, workspace, ["run", file], {
    OPENAI_API_KEY: "sk-local-plugins",
    NOTES_TOKEN: TOKEN,
  });

/** The scripted model, answering each request of the agent step in turn with `replies`. */
const modelReplying = (...replies: Partial<Pick<Rule, "text" | "toolCalls" | "delayMs">>[]) =>
  startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: replies.map((reply) => ({
        match: { messagesContain: "PLUGIN-RUN" },
        times: 1,
        ...reply,
      })),
    },
  });

type Body = {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
};

// AWF's additive mode (intercept_builtins: false) gives the same tools: the built-ins go through the proxy either way.
it.each([true, false])(
  "serves a step's exposed tools from a local stdio server, whose result reaches the model (intercept_builtins: %s)",
  async (interceptBuiltins) => {
    model = await modelReplying(
      {
        toolCalls: [
          { name: "notes_echo", arguments: { text: "from the local server" } },
          { name: "notes_reveal", arguments: {} },
        ],
      },
      { text: "noted" },
    );
    const { file, workspace, server } = setup(
      `ok-${interceptBuiltins}`,
      { plugin: "notes", expose: "echo, reveal", interceptBuiltins },
      model.url,
    );
    const r = await runAs(workspace, file).ended;
    expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
    expect(model.failures).toEqual([]);
    expect(r.err).toMatch(/^sandbox: namespaces$/m);
    const bodies = model.requests.map((q) => q.body as Body);
    const offered = (bodies[0]?.tools ?? []).map((t) => t.function.name);
    expect(offered).toContain("Read");
    expect(offered.filter((n) => n.startsWith("notes_")).sort()).toEqual([
      "notes_echo",
      "notes_reveal",
    ]);
    // The call's result went back to the model; the server had its declared variable, scrubbed.
    const toolResults = JSON.stringify(bodies[1]?.messages.filter((m) => m.role === "tool"));
    expect(toolResults).toContain("from the local server");
    expect(toolResults).toContain("credential=");
    expect(toolResults).not.toContain("credential=none");
    expect(JSON.stringify(bodies)).not.toContain(TOKEN);
    expect(r.err).toMatch(/⚒ \[agent\] notes_echo /);
    expect(r.err).toMatch(/⚒ \[agent\] notes_reveal /);
    expect(r.out + r.err).not.toContain(TOKEN);
    expect(existsSync(path.join(workspace, "ran.txt"))).toBe(true);
    expect(serversRunning(server)).toEqual([]);
  },
  300_000,
);

it("answers a local server's form with cancel: nobody is asked on the person's laptop, and the run goes on", async () => {
  model = await modelReplying(
    { toolCalls: [{ name: "notes_ask", arguments: {} }] },
    { text: "asked" },
  );
  const { file, workspace, server } = setup(
    "ask",
    { plugin: "notes", expose: "ask", serverArgs: ["--ask"] },
    model.url,
  );
  const r = await runAs(workspace, file).ended;
  expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
  const toolResults = JSON.stringify(
    (model.requests[1]?.body as Body | undefined)?.messages.filter((m) => m.role === "tool"),
  );
  expect(toolResults).toContain("action=cancel");
  expect(r.out + r.err).not.toContain("Which name?");
  expect(serversRunning(server)).toEqual([]);
}, 300_000);

it("gives up a local tool's call at the step's tool_timeout, and the agent hears that it failed", async () => {
  model = await modelReplying(
    { toolCalls: [{ name: "notes_sleep", arguments: { ms: 45_000 } }] },
    { text: "went on without it" },
  );
  const { file, workspace, server } = setup(
    "cut",
    { plugin: "notes", expose: "sleep", toolTimeout: "2s" },
    model.url,
  );
  const r = await runAs(workspace, file).ended;
  expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
  const bodies = model.requests.map((q) => q.body as Body);
  // The call was given up at 2 s (unset, it would have been held for the server's 45 s).
  const toolResults = JSON.stringify(bodies[1]?.messages.filter((m) => m.role === "tool"));
  expect(toolResults).toContain("notes_sleep failed");
  expect(toolResults).toMatch(/timed out/i);
  expect(toolResults).not.toContain("slept");
  expect(r.out).toContain("went on without it");
  expect(serversRunning(server)).toEqual([]);
}, 300_000);

const REFUSALS = [
  {
    what: "a plugin the connectors file does not declare",
    entry: { plugin: "nope", expose: "echo" },
    at: 15,
    code: "USER.MCP_PROXY.UNKNOWN_PLUGIN",
    says: /plugin 'nope' not found: "nope" is not one of the servers in .*connectors\.json \(notes\)/,
  },
  {
    what: "an operation the server does not list",
    entry: { plugin: "notes", expose: "echo, nope" },
    at: 16,
    code: "USER.MCP_PROXY.UNKNOWN_OPERATION",
    says: /operation 'nope' not found in plugin 'notes' \(its tools.*echo/,
  },
];

it.each(REFUSALS)(
  "refuses $what at its line, before any step, and leaves no server running",
  async (refusal) => {
    const { file, workspace, server } = setup(refusal.code, refusal.entry, "http://127.0.0.1:9");
    const r = await runAs(workspace, file).ended;
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain(`${file}:${refusal.at}:`);
    expect(r.err).toContain(refusal.code);
    expect(r.err).toMatch(refusal.says);
    expect(existsSync(path.join(workspace, "ran.txt"))).toBe(false);
    expect(serversRunning(server)).toEqual([]);
  },
  120_000,
);

it("leaves no server behind when the run is stopped with Ctrl-C", async () => {
  const { file, workspace, server } = setup(
    "stopped",
    { plugin: "notes", expose: "echo" },
    "http://127.0.0.1:9",
    "sleep 120",
  );
  const run = runAs(workspace, file);
  // (A run refused before its first step ends instead.)
  await Promise.race([run.said("▶ first"), run.ended]);
  // Started once before the first step, to list its tools, and kept for the run: sandboxed
  // (a mount namespace not the command's), with its declared variable and none of the person's.
  const [pid] = serversRunning(server).filter((p) =>
    readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("node\0"),
  );
  expect(pid).toBeDefined();
  const mounts = (p: number | string) => readlinkSync(`/proc/${p}/ns/mnt`);
  expect(mounts(pid!)).not.toBe(mounts(run.child.pid!));
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  expect(environ).toContain(`FIXTURE_TOKEN=${TOKEN}`);
  expect(environ.filter((v) => /^(NOTES_TOKEN|OPENAI_API_KEY)=/.test(v))).toEqual([]);
  run.child.kill("SIGINT");
  const r = await run.ended;
  expect(r.code, r.err).not.toBe(0);
  expect(serversRunning(server)).toEqual([]);
}, 120_000);

it("does not start a server again once the steps may run: a step's change to its files never runs", async () => {
  model = await modelReplying(
    { toolCalls: [{ name: "notes_crash", arguments: {} }] },
    // After the pool's back-off (2 s), so that its next call would start the server again.
    { delayMs: 3_000, toolCalls: [{ name: "notes_echo", arguments: { text: "again" } }] },
    { text: "done" },
  );
  const { file, workspace, server } = setup(
    "restart",
    { plugin: "notes", expose: "echo, crash" },
    model.url,
    "sh swap.sh",
  );
  // The first step puts its own code where the server's was.
  writeFileSync(
    path.join(workspace, "swap.sh"),
    `echo 'import("node:fs").then((fs) => fs.writeFileSync("pwned", "1"));' > tools/${server}\n`,
    { mode: 0o644 },
  );
  chownSync(path.join(workspace, "tools", server), PERSON, PERSON);
  const r = await runAs(workspace, file).ended;
  expect(model.failures).toEqual([]);
  const bodies = model.requests.map((q) => q.body as Body);
  const after = JSON.stringify(bodies[2]?.messages.filter((m) => m.role === "tool"));
  expect(after, r.err).toContain("exited during the run");
  expect(existsSync(path.join(workspace, "pwned"))).toBe(false);
  expect(serversRunning(server)).toEqual([]);
}, 300_000);

it("stops while the connectors start: Ctrl-C cancels the run through its cleanup, with nothing left running", async () => {
  const { file, workspace } = setup(
    "slow",
    { plugin: "notes", expose: "echo" },
    "http://127.0.0.1:9",
  );
  const marker = `slow-start-${randomBytes(4).toString("hex")}`;
  const connectors = path.join(path.dirname(file), ".switchyard/connectors.json");
  writeFileSync(
    connectors,
    `${JSON.stringify({ mcpServers: { notes: { command: "sh", args: ["-c", `sleep 60 # ${marker}`] } } })}\n`,
    { mode: 0o644 },
  );
  const run = runAs(workspace, file);
  await run.said("sandbox:");
  // The server is starting (its command sleeps): the run has not reached its first step.
  for (let i = 0; i < 100 && serversRunning(marker).length === 0; i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(serversRunning(marker)).not.toEqual([]);
  run.child.kill("SIGINT");
  const r = await run.ended;
  expect(r.code, r.err).not.toBe(0);
  expect(r.err).toContain("EXECUTION.CANCELLED");
  expect(r.err).not.toContain("▶ first");
  expect(serversRunning(marker)).toEqual([]);
}, 120_000);

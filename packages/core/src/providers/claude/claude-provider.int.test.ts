/**
 * The claude provider end to end: the real Claude Code (pinned in scripts/agents.json, from
 * the agents folder, under its Node 22 runtime) launched as buildClaudeLaunch says, run by
 * runClaude through a plain spawn port, against the scripted model on loopback, with the
 * real `switchyard mcp-serve` as its only MCP server. It drives all six built-ins through the
 * proxy, an escape the proxy refuses (the model is told and carries on), usage and the
 * answer; a CLI that ends without a result, an error result, a tool activated by
 * tool_search, and a cancel mid-step that leaves no process (the CLI, the proxy, the proxy's
 * command), checked in /proc.
 *
 * The agents folder is SWITCHYARD_AGENTS_DIR or ~/.cache/switchyard/agents; Claude Code is
 * installed there on demand (`npm run agents:install -- --only claude`), and only when that
 * fails is the suite skipped, saying why.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pidsWithEnv } from "../../sandbox/proc-scan";
import {
  agentsDirOf,
  buildSwitchyardBin,
  CLI_BIN,
  cmdline,
  expectNothingLeft,
  expectToolSearchRun,
  installedAgent,
  type ListChanged,
  longBashScript,
  makeTestStep,
  readRecords,
  runInStep,
  SIX_ANSWER,
  sixBuiltinsTurns,
  sleepRuns,
  type TestStep,
  TOOL_SEARCH_TOOL_NAMES,
  toolSearchScript,
  traceRun,
  useToolSearch,
  waitFor,
} from "@switchyard/testing/agents";
import { buildClaudeLaunch, type ClaudeLaunch } from "./build-claude-launch";
import { buildClaudeMcpConfig } from "./claude-mcp-config";
import { runClaude, type RunClaudeInput } from "./run-claude";

const AGENTS_DIR = agentsDirOf(process.env);
const claude = installedAgent(
  AGENTS_DIR,
  "claude",
  (line) => console.log(`[claude-provider] ${line}`),
  process.env,
);

/** What Claude Code does with notifications/tools/list_changed (see toolSearchScript). */
const LIST_CHANGED: ListChanged = "refreshed-later";

const TOKEN = "gw-step-3c9a1f7e5b2d";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const named = (tool: string) => `mcp__switchyard__${tool}`;
const PROXY_TOOLS = BUILTINS.map(named);
type Step = TestStep;

const makeStep = async (): Promise<Step> => {
  const step = await makeTestStep("claude-provider-");
  await writeFile(
    path.join(step.conf, "mcp.json"),
    buildClaudeMcpConfig({
      node: process.execPath,
      switchyardBin: CLI_BIN,
      proxyConfigPath: path.join(step.conf, "proxy.json"),
    }),
  );
  return step;
};

const launchFor = (
  step: Step,
  model: ScriptedModel,
  request: { prompt: string; systemPrompt?: string; options?: Record<string, unknown> },
  over: { mcpConfigPath?: string; toolNames?: readonly string[] } = {},
) =>
  buildClaudeLaunch({
    request: { options: {}, ...request },
    cliPath: claude!.command,
    nodeBinDir: claude!.pathPrefix,
    homeDir: step.home,
    tmpDir: path.join(step.dir, "tmp"),
    mcpConfigPath: over.mcpConfigPath ?? path.join(step.conf, "mcp.json"),
    gateway: { baseUrl: model.url, token: TOKEN },
    builtinsIntercepted: true,
    toolNames: over.toolNames ?? BUILTINS,
    runsAsRoot: process.getuid?.() === 0,
  });

const run = (step: Step, launch: ClaudeLaunch, over: Partial<RunClaudeInput> = {}) =>
  runInStep(step, launch, (input) => runClaude({ ...input, ...over }));

const trace = traceRun;

describe.skipIf(!claude)("the claude provider with the real Claude Code", () => {
  let step: Step;
  let model: ScriptedModel | undefined;

  beforeAll(buildSwitchyardBin, 120_000);

  beforeEach(async () => {
    step = await makeStep();
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await rm(step.dir, { recursive: true, force: true });
  });

  it("drives the six built-ins through the proxy, survives a refused escape, and returns usage and the answer", async () => {
    // Planted in the workspace: project settings with a hook, and a project MCP server. Neither may count.
    await mkdir(path.join(step.work, ".claude"));
    const pwned = path.join(step.dir, "PWNED");
    await writeFile(
      path.join(step.work, ".claude/settings.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${pwned}` }] }] },
      }),
    );
    await writeFile(
      path.join(step.work, ".mcp.json"),
      JSON.stringify({
        mcpServers: { planted: { command: "/bin/sh", args: ["-c", `touch ${pwned}`] } },
      }),
    );
    // Long enough to travel on stdin and in a file instead of arguments.
    const prompt = `${"Context line.\n".repeat(6000)}Edit notes/a.txt. PROMPT-END-7`;
    const systemPrompt = `${"Rule line.\n".repeat(8000)}You are SYSTEM-END-7.`;
    const answer = SIX_ANSWER;
    model = await startScriptedModel({
      script: {
        turns: sixBuiltinsTurns(named, {
          toolOffered: PROXY_TOOLS,
          messagesContain: "PROMPT-END-7",
          systemContains: "You are SYSTEM-END-7.",
          model: "claude-sonnet-4-5",
        }),
      },
    });

    const r = await run(
      step,
      launchFor(step, model, { prompt, systemPrompt, options: { model: "claude-sonnet-4-5" } }),
    );
    expect(model.failures, trace(r, model)).toEqual([]);
    expect(model.turnsLeft, trace(r, model)).toBe(0);
    expect(r, trace(r, model)).toMatchObject({
      status: "success",
      output: answer,
      exitCode: 0,
      turns: 8,
    });
    expect(r.tokensInput).toBeGreaterThan(0);
    expect(r.tokensOutput).toBeGreaterThan(0);
    expect(r.tokensUsed).toBe(r.tokensInput! + r.tokensOutput!);
    expect(r.costUsd).toBeTypeOf("number");
    expect(r.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // Every tool went through the proxy (none native), and each result came back.
    const uses = r.events.filter((e) => e.type === "tool_use");
    expect(uses.map((u) => [u.name, u.native ?? false])).toEqual(
      ["Write", "Read", "Edit", "Bash", "Glob", "Grep", "Read"].map((n) => [n, false]),
    );
    const results = r.events.filter((e) => e.type === "tool_result");
    expect(results.map((x) => x.id)).toEqual(uses.map((u) => u.id));
    expect(results.map((x) => x.isError)).toEqual([false, false, false, false, false, false, true]);
    expect(results[6]!.text).toContain("outside the workspace");
    expect(r.events.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(r.events.at(-1)).toMatchObject({ type: "final", text: answer, turns: 8 });
    expect(r.events.filter((e) => e.type === "error")).toEqual([]);
    expect(await readFile(path.join(step.work, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");
    expect((await readRecords(step)).map((c) => [c.tool, c.is_error])).toEqual([
      ["Write", false],
      ["Read", false],
      ["Edit", false],
      ["Bash", false],
      ["Glob", false],
      ["Grep", false],
      ["Read", true],
    ]);

    // The model saw only the proxy's tools and the gateway token; the CLI's own tools were off.
    const first = model.requests.find((q) => q.api === "anthropic")!;
    expect(
      first
        .view!.tools.filter((t) => !t.deferred)
        .map((t) => t.name)
        .sort(),
    ).toEqual([...PROXY_TOOLS].sort());
    expect(first.auth).toEqual([{ header: "x-api-key", fingerprint: fingerprint(TOKEN) }]);
    // Our settings in the private HOME took effect (auto-memory off), the planted ones did not.
    const init = r.stdout
      .split("\n")
      .filter((l) => l.includes('"subtype":"init"'))
      .map((l) => JSON.parse(l) as { memory_paths?: unknown; mcp_servers: unknown });
    expect(init).toHaveLength(1);
    expect(init[0]!.memory_paths ?? null).toBeNull();
    expect(init[0]!.mcp_servers).toEqual([
      { name: "switchyard", status: "connected", source: "dynamic" },
    ]);
    expect(existsSync(pwned)).toBe(false);
    expect(await readdir(step.work)).toEqual(
      expect.arrayContaining([".claude", ".mcp.json", "notes"]),
    );
    expect(existsSync(path.join(step.work, ".claude/settings.local.json"))).toBe(false);
    await expectNothingLeft(step);
  }, 180_000);

  it("fails with EXECUTION.AGENT_NO_RESULT when the CLI ends without a result, and with the model's code on an error result", async () => {
    model = await startScriptedModel({
      script: {
        turns: [],
        rules: [
          { match: { api: "anthropic" }, error: { status: 400, message: "scripted rejection" } },
        ],
      },
    });
    const broken = await run(
      step,
      launchFor(
        step,
        model,
        { prompt: "hi" },
        { mcpConfigPath: path.join(step.conf, "missing.json") },
      ),
    );
    expect(broken, trace(broken, model)).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
    });
    expect(broken.error).toContain("exited with code 1 without reporting a result");
    expect(broken.error).toContain("MCP config file not found");

    const rejected = await run(step, launchFor(step, model, { prompt: "hi" }));
    expect(rejected, trace(rejected, model)).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
    });
    expect(rejected.error).toContain("scripted rejection");
    expect(rejected.events.filter((e) => e.type === "text")).toEqual([]);
  }, 180_000);

  it("activates a tool found by tool_search and calls it through call_tool: Claude Code refreshes its tools on tools/list_changed, in time for a later request", async () => {
    await useToolSearch(step);
    model = await startScriptedModel({ script: toolSearchScript(named, LIST_CHANGED) });
    const launch = launchFor(
      step,
      model,
      { prompt: "Write the file." },
      { toolNames: TOOL_SEARCH_TOOL_NAMES },
    );
    await expectToolSearchRun(step, await run(step, launch), model, LIST_CHANGED);
  }, 180_000);

  it("fails with EXECUTION.AGENT_NO_RESULT when the CLI is killed mid-step, leaving no process", async () => {
    model = await startScriptedModel(longBashScript(named, step));
    const pending = run(step, launchFor(step, model, { prompt: "Run the long command." }));
    await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
    const cli = pidsWithEnv("HOME", step.home).find((pid) =>
      cmdline(pid).includes(claude!.command),
    );
    expect(cli).toBeDefined();
    process.kill(cli!, "SIGKILL");
    const r = await pending;
    expect(r, trace(r, model)).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
    });
    expect(r.error).toContain("was stopped by SIGKILL without reporting a result");
    await expectNothingLeft(step);
  }, 180_000);

  it("stops the CLI, its MCP server and the server's command when the step is cancelled", async () => {
    model = await startScriptedModel(longBashScript(named, step));
    const controller = new AbortController();
    const pending = run(step, launchFor(step, model, { prompt: "Run the long command." }), {
      signal: controller.signal,
    });
    await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
    const running = pidsWithEnv("HOME", step.home).map(cmdline);
    expect(running.some((c) => c.includes(claude!.command))).toBe(true);
    expect(running.some((c) => c.includes("mcp-serve"))).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r, trace(r, model)).toMatchObject({
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
    });
    expect(r.events.some((e) => e.type === "tool_use" && e.name === "Bash")).toBe(true);
    await expectNothingLeft(step);
  }, 180_000);
});

/**
 * The opencode provider end to end: the real OpenCode (pinned in scripts/agents.json, from
 * the agents folder) launched as buildOpencodeLaunch says, run by runOpencode through a plain
 * spawn port, against the scripted model's OpenAI Chat Completions API on loopback, with the
 * real `switchyard mcp-serve` as its only MCP server. It drives all six built-ins through the
 * proxy with OpenCode's own tools not offered, an escape the proxy refuses (the model is told
 * and carries on), usage and the answer; a rejected model request, a tool activated by
 * tool_search, a CLI killed mid-step (EXECUTION.AGENT_NO_RESULT), and a cancel mid-step that
 * leaves no process (the CLI, the proxy, the proxy's command), checked in /proc.
 *
 * The agents folder is SWITCHYARD_AGENTS_DIR or ~/.cache/switchyard/agents; OpenCode is
 * installed there on demand, and only when that fails is the suite skipped, saying why.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
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
  SIX_CALLS,
  sixBuiltinsTurns,
  sleepRuns,
  type TestStep,
  TOOL_SEARCH_TOOL_NAMES,
  toolSearchScript,
  traceRun,
  useToolSearch,
  waitFor,
} from "@switchyard/testing/agents";
import { buildOpencodeLaunch, type OpencodeLaunch } from "./build-opencode-launch";
import { runOpencode, type RunOpencodeInput } from "./run-opencode";

const AGENTS_DIR = agentsDirOf(process.env);
const opencode = installedAgent(
  AGENTS_DIR,
  "opencode",
  (line) => console.log(`[opencode-provider] ${line}`),
  process.env,
);

/** What OpenCode does with notifications/tools/list_changed (see toolSearchScript). */
const LIST_CHANGED: ListChanged = "refreshed-later";

const TOKEN = "gw-step-8e1d4c7a2f90";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const named = (tool: string) => `switchyard_${tool}`;
const PROXY_TOOLS = BUILTINS.map(named);

type Step = TestStep;
const makeStep = () => makeTestStep("opencode-provider-");

const launchFor = (
  step: Step,
  model: ScriptedModel,
  request: { prompt: string; systemPrompt?: string; options?: Record<string, unknown> },
  toolNames: readonly string[] = BUILTINS,
) =>
  buildOpencodeLaunch({
    request: { options: {}, ...request },
    cliPath: opencode!.command,
    nodeBinDir: opencode!.pathPrefix,
    homeDir: step.home,
    tmpDir: path.join(step.dir, "tmp"),
    proxy: {
      command: process.execPath,
      args: [CLI_BIN, "mcp-serve", "--config", path.join(step.conf, "proxy.json")],
    },
    gateway: { baseUrl: `${model.url}/v1`, token: TOKEN },
    toolNames,
  });

const run = (step: Step, launch: OpencodeLaunch, over: Partial<RunOpencodeInput> = {}) =>
  runInStep(step, launch, (input) => runOpencode({ ...input, ...over }));

const trace = traceRun;

describe.skipIf(!opencode)("the opencode provider with the real OpenCode", () => {
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
    // Planted in the workspace: a project config with an MCP server, which must not count.
    const pwned = path.join(step.dir, "PWNED");
    await writeFile(
      path.join(step.work, "opencode.json"),
      JSON.stringify({
        mcp: {
          planted: { type: "local", command: ["/bin/sh", "-c", `touch ${pwned}`], enabled: true },
        },
      }),
    );
    // And a plugin, which OpenCode loads from its project folder's .opencode/ whatever --pure says.
    await mkdir(path.join(step.work, ".opencode/plugin"), { recursive: true });
    await writeFile(
      path.join(step.work, ".opencode/plugin/planted.js"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(pwned)}, "plugin");\nexport const Planted = async () => ({});\n`,
    );
    // Long enough to travel on stdin; the system prompt holds config syntax that must stay text.
    const prompt = `${"Context line.\n".repeat(6000)}Edit notes/a.txt. PROMPT-END-7`;
    const systemPrompt = `${"Rule line.\n".repeat(8000)}You are SYSTEM-END-7 {env:${"SWITCHYARD_GATEWAY_TOKEN"}}.`;
    const answer = SIX_ANSWER;
    model = await startScriptedModel({
      script: {
        turns: sixBuiltinsTurns(named, {
          toolOffered: PROXY_TOOLS,
          messagesContain: "PROMPT-END-7",
          systemContains: "You are SYSTEM-END-7 {env:SWITCHYARD_GATEWAY_TOKEN}.",
          model: "gpt-test-1",
        }),
      },
    });

    const launch = launchFor(step, model, {
      prompt,
      systemPrompt,
      options: { model: "openai/gpt-test-1" },
    });
    expect(launch.stdin).toBe(prompt);
    const r = await run(step, launch);
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
    expect(r.sessionId).toMatch(/^ses_\w+$/);

    // Each call and its result, proxied (none native), the escape the only error; the proxy recorded the same.
    const expected = SIX_CALLS.map(([tool, , , refused]) => `${tool} ${refused}`);
    const uses = r.events.flatMap((e) => (e.type === "tool_use" && !e.native ? [e] : []));
    const results = r.events.flatMap((e) => (e.type === "tool_result" && !e.native ? [e] : []));
    expect(results.map((x, i) => `${uses[i]?.name} ${x.isError}`)).toEqual(expected);
    expect(results.map((x) => x.id)).toEqual(uses.map((u) => u.id));
    expect(r.events.filter((e) => e.type === "tool_use")).toHaveLength(7);
    expect(results[6]!.text).toContain("outside the workspace");
    const usage = r.events.filter((e) => e.type === "usage");
    expect(usage).toHaveLength(8);
    expect(r.events.at(-1)).toMatchObject({ type: "final", text: answer, turns: 8 });
    expect(r.events.filter((e) => e.type === "error")).toEqual([]);
    expect(await readFile(path.join(step.work, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");
    expect((await readRecords(step)).map((c) => `${c.tool} ${c.is_error}`)).toEqual(expected);

    // Every model request went to the gateway with the step token and offered only the proxy's tools.
    const chat = model.requests.filter((q) => q.api === "openai-chat");
    expect(chat).toHaveLength(8);
    for (const q of chat) {
      expect(q.auth).toEqual([
        { header: "authorization", scheme: "Bearer", fingerprint: fingerprint(TOKEN) },
      ]);
      expect(q.view!.tools.map((t) => t.name).sort()).toEqual([...PROXY_TOOLS].sort());
    }
    expect(model.requests.filter((q) => q.api !== "openai-chat")).toEqual([]);
    expect(existsSync(pwned)).toBe(false);
    await expectNothingLeft(step);
  }, 180_000);

  it("fails with the model's code when the model rejects the request", async () => {
    model = await startScriptedModel({
      script: {
        turns: [],
        rules: [
          { match: { api: "openai-chat" }, error: { status: 400, message: "scripted rejection" } },
        ],
      },
    });
    const rejected = await run(step, launchFor(step, model, { prompt: "hi" }));
    expect(rejected, trace(rejected, model)).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
    });
    expect(rejected.error).toContain("scripted rejection");
    expect(rejected.events.filter((e) => e.type === "error")).toHaveLength(1);
    expect(rejected.events.filter((e) => e.type === "text")).toEqual([]);
    await expectNothingLeft(step);
  }, 180_000);

  it("activates a tool found by tool_search and calls it through call_tool: OpenCode refreshes its tools on tools/list_changed, in time for a later request", async () => {
    await useToolSearch(step);
    model = await startScriptedModel({ script: toolSearchScript(named, LIST_CHANGED) });
    const launch = launchFor(
      step,
      model,
      { prompt: "Write the file.", options: { model: "openai/gpt-test-1" } },
      TOOL_SEARCH_TOOL_NAMES,
    );
    await expectToolSearchRun(step, await run(step, launch), model, LIST_CHANGED);
  }, 180_000);

  it("fails with EXECUTION.AGENT_NO_RESULT when the CLI is killed mid-step, leaving no process", async () => {
    model = await startScriptedModel(longBashScript(named, step));
    const pending = run(step, launchFor(step, model, { prompt: "Run the long command." }));
    await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
    const cli = pidsWithEnv("HOME", step.home).find((pid) =>
      cmdline(pid).includes(opencode!.command),
    );
    expect(cli).toBeDefined();
    process.kill(cli!, "SIGKILL");
    const r = await pending;
    expect(r, trace(r, model)).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
    });
    expect(r.error).toContain("OpenCode was stopped by SIGKILL without reporting a result");
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
    expect(running.some((c) => c.includes(opencode!.command))).toBe(true);
    expect(running.some((c) => c.includes("mcp-serve"))).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r, trace(r, model)).toMatchObject({
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
    });
    // OpenCode reports a tool call only once it has finished: the cancelled Bash call never shows.
    expect(r.events.some((e) => e.type === "tool_use")).toBe(false);
    await expectNothingLeft(step);
  }, 180_000);
});

/**
 * The gemini provider end to end: the real Gemini CLI (pinned in scripts/agents.json, from
 * the agents folder, under the Node 22 runtime) launched as buildGeminiLaunch says and run
 * by runGemini through a plain spawn port, against the scripted model on loopback, with the
 * real `switchyard mcp-serve` as its only MCP server. It drives the six built-ins through
 * the proxy, an escape the proxy refuses, usage and the answer; a workspace `.gemini/` that
 * must not count; a model that refuses the request; a tool activated by tool_search; a CLI
 * killed mid-step (EXECUTION.AGENT_NO_RESULT); and a cancel mid-step that leaves no process
 * (the CLI, the proxy, the proxy's command), checked in /proc.
 *
 * Gemini CLI is installed into the agents folder on demand; only when that fails is the
 * suite skipped, saying why.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
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
  stepLeader,
  type TestStep,
  TOOL_SEARCH_TOOL_NAMES,
  toolSearchScript,
  traceRun,
  useToolSearch,
  waitFor,
} from "@switchyard/testing/agents";
import { buildGeminiLaunch, type GeminiLaunch } from "./build-gemini-launch";
import { runGemini, type RunGeminiInput } from "./run-gemini";

const MODEL = "gemini-2.5-flash";
const TOKEN = "gw-step-9d4e1b7a2c6f";
const TOOLS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const named = (tool: string) => `mcp_switchyard_${tool}`;
const OFFERED = TOOLS.map(named);
const gemini = installedAgent(
  agentsDirOf(process.env),
  "gemini",
  (line) => console.log(`[gemini-provider] ${line}`),
  process.env,
);
/** What Gemini CLI does with notifications/tools/list_changed (see toolSearchScript). */
const LIST_CHANGED: ListChanged = "refreshed-later";
/** Where a run's raw stdout is kept, to refresh the parser's fixtures by hand. */
const CAPTURE = process.env.GEMINI_CAPTURE;

type Request = { prompt: string; systemPrompt?: string; options?: Record<string, unknown> };

const launchFor = (
  step: TestStep,
  model: ScriptedModel,
  request: Request,
  toolNames: readonly string[] = TOOLS,
) =>
  buildGeminiLaunch({
    request: { options: { model: MODEL }, ...request },
    cli: { command: gemini!.command, args: gemini!.args },
    nodeBinDir: gemini!.pathPrefix,
    homeDir: step.home,
    tmpDir: path.join(step.dir, "tmp"),
    proxy: {
      command: process.execPath,
      args: [CLI_BIN, "mcp-serve", "--config", path.join(step.conf, "proxy.json")],
    },
    gateway: { baseUrl: model.url, token: TOKEN },
    toolNames,
  });

const run = (step: TestStep, launch: GeminiLaunch, over: Partial<RunGeminiInput> = {}) =>
  runInStep(step, launch, (input) => runGemini({ ...input, ...over }));

describe.skipIf(!gemini)("the gemini provider with the real Gemini CLI", () => {
  let step: TestStep;
  let model: ScriptedModel | undefined;

  beforeAll(buildSwitchyardBin, 120_000);
  beforeEach(async () => {
    step = await makeTestStep("gemini-provider-");
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await rm(step.dir, { recursive: true, force: true });
  });

  it("drives the six built-ins through the proxy, survives a refused escape, ignores a workspace .gemini/, and returns usage and the answer", async () => {
    // Planted in the workspace: settings with a hook, an MCP server and the CLI's shell tool, and a .env. None may count.
    const pwned = path.join(step.dir, "PWNED");
    await mkdir(path.join(step.work, ".gemini"));
    await writeFile(
      path.join(step.work, ".gemini/settings.json"),
      JSON.stringify({
        hooksConfig: { enabled: true },
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${pwned}` }] }] },
        mcpServers: { planted: { command: "/bin/sh", args: ["-c", `touch ${pwned}`] } },
        tools: { core: ["run_shell_command"] },
      }),
    );
    await writeFile(path.join(step.work, ".env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    const prompt = `${"Context line.\n".repeat(6000)}Edit notes/a.txt. PROMPT-END-9`;
    const answer = SIX_ANSWER;
    model = await startScriptedModel({
      script: {
        turns: sixBuiltinsTurns(named, {
          toolOffered: OFFERED,
          messagesContain: "PROMPT-END-9",
          systemContains: "You are SYSTEM-END-9.",
          model: MODEL,
        }),
      },
    });

    const r = await run(
      step,
      launchFor(step, model, { prompt, systemPrompt: "Rules.\nYou are SYSTEM-END-9." }),
    );
    if (CAPTURE) await writeFile(CAPTURE, r.stdout);
    expect(model.failures, traceRun(r, model)).toEqual([]);
    expect(model.turnsLeft, traceRun(r, model)).toBe(0);
    expect(r, traceRun(r, model)).toMatchObject({ status: "success", output: answer, exitCode: 0 });
    expect(r.tokensInput).toBeGreaterThan(0);
    expect(r.tokensOutput).toBeGreaterThan(0);
    expect(r.tokensUsed).toBe(r.tokensInput! + r.tokensOutput!);
    expect(r.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const uses = r.events.flatMap((e) => (e.type === "tool_use" ? [e] : []));
    expect(uses.map((u) => [u.name, u.native ?? false])).toEqual(
      SIX_CALLS.map(([tool]) => [tool, false]),
    );
    const results = r.events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    expect(results.map((x) => x.id)).toEqual(uses.map((u) => u.id));
    expect(results.map((x) => x.isError)).toEqual(SIX_CALLS.map((c) => c[3]));
    expect(results[6]!.text).toContain("outside the workspace");
    expect(r.events.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(r.events.filter((e) => e.type === "error")).toEqual([]);
    expect(r.events.at(-1)).toEqual({ type: "final", text: answer });
    expect(await readFile(path.join(step.work, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");
    expect((await readRecords(step)).map((c) => [c.tool, c.is_error])).toEqual(
      SIX_CALLS.map(([tool, , , refused]) => [tool, refused]),
    );

    // The first model request already offered the proxy's tools, and nothing else; the key was the step token.
    const opening = model.requests.find((q) => q.api === "gemini")!;
    expect(opening.view!.tools.map((t) => t.name).sort()).toEqual([...OFFERED].sort());
    expect(opening.auth).toEqual([{ header: "x-goog-api-key", fingerprint: fingerprint(TOKEN) }]);
    expect(existsSync(pwned)).toBe(false);
    await expectNothingLeft(step);
  }, 180_000);

  it("fails with the model's code when the model refuses the request", async () => {
    model = await startScriptedModel({
      script: {
        turns: [],
        rules: [
          { match: { api: "gemini" }, error: { status: 400, message: "scripted rejection" } },
        ],
      },
    });
    const r = await run(step, launchFor(step, model, { prompt: "hi" }));
    if (CAPTURE) await writeFile(`${CAPTURE}.rejected`, r.stdout);
    const refused = { status: "failure", errorCode: "USER.PROVIDER.REQUEST_REJECTED" };
    expect(r, traceRun(r, model)).toMatchObject(refused);
    expect(r.error).toContain("scripted rejection");
    expect(r.events.some((e) => e.type === "text")).toBe(false);
  }, 180_000);

  it("activates a tool found by tool_search and calls it through call_tool: Gemini CLI refreshes its tools on tools/list_changed, in time for a later request", async () => {
    await useToolSearch(step);
    model = await startScriptedModel({ script: toolSearchScript(named, LIST_CHANGED) });
    const launch = launchFor(step, model, { prompt: "Write the file." }, TOOL_SEARCH_TOOL_NAMES);
    await expectToolSearchRun(step, await run(step, launch), model, LIST_CHANGED);
  }, 180_000);

  it("fails with EXECUTION.AGENT_NO_RESULT when the CLI is killed mid-step, leaving no process", async () => {
    model = await startScriptedModel(longBashScript(named, step));
    const pending = run(step, launchFor(step, model, { prompt: "Run the long command." }));
    await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
    const cli = stepLeader(step);
    expect(cli && cmdline(cli)).toContain(gemini!.entry);
    process.kill(cli!, "SIGKILL");
    const r = await pending;
    expect(r, traceRun(r, model)).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
    });
    expect(r.error).toContain("Gemini CLI was stopped by SIGKILL without reporting a result");
    expect(
      r.events.filter((e) => e.type === "error").map((e) => e.type === "error" && e.code),
    ).toEqual(["EXECUTION.AGENT_NO_RESULT"]);
    await expectNothingLeft(step);
  }, 180_000);

  it("stops the CLI, its MCP server and the server's command when the step is cancelled", async () => {
    model = await startScriptedModel(longBashScript(named, step));
    const controller = new AbortController();
    const pending = run(step, launchFor(step, model, { prompt: "Run the long command." }), {
      signal: controller.signal,
    });
    // The command itself runs: the CLI printed its tool_use line before it called the proxy.
    await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
    const live = pidsWithEnv("HOME", step.home).map(cmdline);
    expect(live.some((c) => c.includes(gemini!.entry))).toBe(true);
    expect(live.some((c) => c.includes("mcp-serve"))).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r, traceRun(r, model)).toMatchObject({
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
    });
    // Lines the CLI wrote before the cancel are read to the end, not dropped.
    expect(r.events.some((e) => e.type === "tool_use" && e.name === "Bash")).toBe(true);
    await expectNothingLeft(step);
  }, 180_000);
});

/**
 * Every agent CLI of CLI_PROVIDERS end to end, one row each (CLI_ROWS says what differs): the
 * real pinned CLI from the agents folder, launched and run by its CliProvider through a plain
 * spawn port, against the scripted model on loopback, with the real `switchyard mcp-serve`
 * as its only MCP server. Each row drives the six built-ins through the proxy, an escape the
 * proxy refuses (the model is told and carries on), usage and the answer, with the CLI's own
 * tools off and the project files it would read from the workspace planted and ignored; a
 * model that rejects the request; a CLI that cannot start its MCP server; a tool activated by
 * tool_search; a CLI killed mid-step (EXECUTION.AGENT_NO_RESULT); and a cancel mid-step that
 * leaves no process (the CLI, the proxy, the proxy's command), checked in /proc.
 *
 * How a step ends when its proxy or model fails under runCliStep, in the step sandbox, is
 * step/cli-step-end.int.test.ts. A CLI missing from the agents folder (SWITCHYARD_AGENTS_DIR
 * or ~/.cache/switchyard/agents) is installed on demand; only when that fails is its row
 * skipped, saying why. SWITCHYARD_CAPTURE_STDOUT=<prefix> keeps each row's raw stdout of the
 * six built-ins in <prefix>.<cli>, to refresh the parsers' fixtures by hand.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  agentsDirOf,
  buildSwitchyardBin,
  CLI_BIN,
  CLI_ROWS,
  cmdline,
  expectedTools,
  expectNothingLeft,
  expectToolSearchRun,
  installedAgent,
  longBashScript,
  makeTestStep,
  offeredTools,
  PLANTED_MARK,
  readRecords,
  runInStep,
  SIX_ANSWER,
  SIX_CALLS,
  SIX_FIRST_TEXT,
  sixBuiltinsTurns,
  sleepRuns,
  stepLeader,
  TOOL_SEARCH_TOOL_NAMES,
  toolSearchScript,
  traceRun,
  useToolSearch,
  VENDOR_AUTH,
  waitFor,
  WRITE_READ_ANSWER,
  writeReadTurns,
  writtenBy,
  PROVIDER_ROWS,
  type CliRow,
  type TestStep,
} from "@switchyard/testing/agents";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { stepBaseUrl } from "../gateway";
import { pidsWithEnv } from "../sandbox/proc-scan";
import { CLI_PROVIDERS } from "./cli-providers";
import type { LocatedAgent } from "./locate-agent";

const TOKEN = "gw-step-3c9a1f7e5b2d";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const CASE_MS = 180_000;
const CAPTURE = process.env.SWITCHYARD_CAPTURE_STDOUT;
const AGENTS_DIR = agentsDirOf(process.env);

type Ask = {
  prompt: string;
  systemPrompt?: string;
  toolNames?: readonly string[];
  signal?: AbortSignal;
  /** `proxy-config`: the proxy is pointed at a config that does not exist; `mcp-config`: a file the CLI's command line names is left out. */
  breaks?: "proxy-config" | "mcp-config";
  /** The step names no model (`options` without `model`): the CLI picks its own. */
  withoutModel?: boolean;
};

/**
 * One step of `row`'s CLI: its CliProvider's launch (the step's folders, the scripted model
 * behind the vendor's base URL, the built `switchyard mcp-serve` as the proxy) run by its
 * runner in the step, through the plain spawn port. The suite's one call into the provider.
 */
const runStep = async (
  row: CliRow,
  agent: LocatedAgent,
  step: TestStep,
  model: ScriptedModel,
  ask: Ask,
) => {
  const { cli } = CLI_PROVIDERS[row.agent]!;
  const proxyConfig = path.join(
    step.conf,
    ask.breaks === "proxy-config" ? "missing.json" : "proxy.json",
  );
  const launch = cli.launch({
    request: {
      prompt: ask.prompt,
      ...(ask.systemPrompt === undefined ? {} : { systemPrompt: ask.systemPrompt }),
      options: ask.withoutModel ? {} : { model: row.model },
    },
    agent,
    homeDir: step.home,
    tmpDir: path.join(step.dir, "tmp"),
    workspace: step.work,
    proxy: { command: process.execPath, args: [CLI_BIN, "mcp-serve", "--config", proxyConfig] },
    gateway: { baseUrl: stepBaseUrl(cli.vendor, model.url), token: TOKEN },
    toolNames: ask.toolNames ?? BUILTINS,
    runsAsRoot: process.getuid?.() === 0,
  });
  if (ask.breaks === "mcp-config")
    launch.files = launch.files.filter((f) => !launch.argv.some((a) => a.endsWith(f.relativePath)));
  const ran = await runInStep(step, launch, (input) =>
    cli.run({ ...input, ...(ask.signal ? { signal: ask.signal } : {}) }),
  );
  return { ...ran, launch };
};

/** The CLI's process: the one the spawn port started (the leader of its group), a program from its folder of the agents folder. */
const cliPid = (step: TestStep, agent: LocatedAgent) => {
  const leader = stepLeader(step);
  const home = path.join(AGENTS_DIR, agent.agent, "");
  return leader !== undefined && cmdline(leader).includes(home) ? leader : undefined;
};

const plant = async (dir: string, files: Record<string, string>) => {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
};

describe("the CLI rows", () => {
  it("has a row for every provider of CLI_PROVIDERS, and none for another", () => {
    expect(CLI_ROWS.map((r) => r.agent).sort()).toEqual(Object.keys(CLI_PROVIDERS).sort());
  });
});

beforeAll(buildSwitchyardBin, 120_000);

describe.each(CLI_ROWS.map((row) => [row.agent, row] as const))(
  "the %s provider with the real CLI",
  (_, row) => {
    const entry = CLI_PROVIDERS[row.agent]!;
    const say = (line: string) => console.log(`[cli-providers ${row.agent}] ${line}`);
    const located = installedAgent(AGENTS_DIR, row.agent, say, process.env);
    const agent = located!;
    const vendor = entry.cli.vendor;
    let step: TestStep;
    let model: ScriptedModel | undefined;
    const run = (ask: Ask) => runStep(row, agent, step, model!, ask);

    beforeEach(async () => {
      step = await makeTestStep(`${row.agent}-provider-`);
    });
    afterEach(async () => {
      await model?.close();
      model = undefined;
      await rm(step.dir, { recursive: true, force: true });
    });

    it.skipIf(!located)(
      "drives the six built-ins through the proxy, survives a refused escape, ignores the project files it would read, and returns usage and the answer",
      async () => {
        const pwned = path.join(step.dir, "PWNED");
        const planted = row.planted(pwned);
        await plant(step.work, planted);
        // Long enough to travel on stdin or in a file instead of arguments; the system prompt
        // holds quotes and config syntax that must stay text.
        const prompt = `${"Context line.\n".repeat(6000)}Edit notes/a.txt. PROMPT-END-7`;
        const systemPrompt = `${"Rule line.\n".repeat(8000)}You are "SYSTEM-END-7" {env:SWITCHYARD_GATEWAY_TOKEN}.`;
        model = await startScriptedModel({
          script: {
            turns: sixBuiltinsTurns(row.tool, {
              toolOffered: BUILTINS.map(row.tool),
              messagesContain: "PROMPT-END-7",
              systemContains: 'You are "SYSTEM-END-7" {env:SWITCHYARD_GATEWAY_TOKEN}.',
              model: row.model,
            }),
          },
        });

        const r = await run({ prompt, systemPrompt });
        if (CAPTURE) await writeFile(`${CAPTURE}.${row.agent}`, r.stdout);
        const trace = traceRun(r, model);
        expect(model.failures, trace).toEqual([]);
        expect(model.turnsLeft, trace).toBe(0);
        expect(r.launch.argv.join(" ")).not.toMatch(/PROMPT-END-7|SYSTEM-END-7/);
        expect(r, trace).toMatchObject({
          status: "success",
          output: SIX_ANSWER,
          exitCode: 0,
          ...(row.reports.turns ? { turns: 8 } : {}),
        });
        expect(r.tokensInput).toBeGreaterThan(0);
        expect(r.tokensOutput).toBeGreaterThan(0);
        expect(r.tokensUsed).toBe(r.tokensInput! + r.tokensOutput!);
        expect(typeof r.costUsd).toBe(row.reports.cost ? "number" : "undefined");
        expect(r.sessionId).toMatch(row.sessionId);

        // Every tool went through the proxy (none native), each result came back, the escape the only error.
        const uses = r.events.flatMap((e) => (e.type === "tool_use" ? [e] : []));
        expect(uses.map((u) => [u.name, u.native ?? false])).toEqual(
          SIX_CALLS.map(([tool]) => [tool, false]),
        );
        const results = r.events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
        expect(results.map((x) => x.id)).toEqual(uses.map((u) => u.id));
        expect(results.map((x) => x.isError)).toEqual(SIX_CALLS.map(([, , , refused]) => refused));
        expect(results[6]!.text).toContain("outside the workspace");
        expect(r.events.filter((e) => e.type === "usage")).toHaveLength(
          row.reports.usagePerTurn ? 8 : 1,
        );
        expect(r.events.filter((e) => e.type === "error")).toEqual([]);
        expect(r.events.flatMap((e) => (e.type === "text" ? [e.text] : []))).toEqual([
          SIX_FIRST_TEXT,
          SIX_ANSWER,
        ]);
        expect(r.events.at(-1)).toMatchObject({
          type: "final",
          text: SIX_ANSWER,
          ...(row.reports.turns ? { turns: 8 } : {}),
        });
        expect(await readFile(path.join(step.work, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");
        expect((await readRecords(step)).map((c) => [c.tool, c.is_error])).toEqual(
          SIX_CALLS.map(([tool, , , refused]) => [tool, refused]),
        );

        // Every model request went to the vendor's API with the step token, and offered the
        // proxy's tools and nothing of the CLI's own it can switch off.
        expect(model.requests.map((q) => q.api)).toEqual(Array(8).fill(row.api));
        for (const q of model.requests) {
          expect(q.auth).toEqual([{ ...VENDOR_AUTH[vendor], fingerprint: fingerprint(TOKEN) }]);
          expect(offeredTools(q)).toEqual(expectedTools(row, BUILTINS));
        }
        expect(JSON.stringify(model.requests.map((q) => q.body))).not.toContain(PLANTED_MARK);
        expect(existsSync(pwned)).toBe(false);
        for (const file of Object.keys(planted))
          expect(existsSync(path.join(step.work, file))).toBe(true);
        expect(r.stdout).not.toContain(TOKEN);
        await row.ownChecks?.({ stdout: r.stdout, workspace: step.work });
        await expectNothingLeft(step);
      },
      CASE_MS,
    );

    it.skipIf(!located)(
      "fails with USER.PROVIDER.REQUEST_REJECTED and the model's message when the model rejects the request",
      async () => {
        const rule = {
          match: { api: row.api },
          error: { status: 400, message: "scripted rejection" },
        };
        model = await startScriptedModel({ script: { turns: [], rules: [rule] } });
        const r = await run({ prompt: "hi" });
        if (CAPTURE) await writeFile(`${CAPTURE}.${row.agent}.rejected`, r.stdout);
        const trace = traceRun(r, model);
        expect(r, trace).toMatchObject({
          status: "failure",
          errorCode: "USER.PROVIDER.REQUEST_REJECTED",
        });
        expect(r.error).toContain("scripted rejection");
        expect(r.events.filter((e) => e.type === "error")).toHaveLength(1);
        expect(r.events.filter((e) => e.type === "text")).toEqual([]);
        await expectNothingLeft(step);
      },
      CASE_MS,
    );

    // Registered only for a CLI that fails without its MCP server; the row says why another carries on.
    const withoutProxy = "breaks" in row.withoutProxy ? row.withoutProxy : undefined;
    if (withoutProxy)
      it.skipIf(!located)(
        "fails with the CLI's own error when it cannot start its MCP server, as its row says",
        async () => {
          const rule = {
            match: { api: row.api },
            error: { status: 400, message: "scripted rejection" },
          };
          model = await startScriptedModel({ script: { turns: [], rules: [rule] } });
          const r = await run({ prompt: "hi", breaks: withoutProxy.breaks });
          expect(r, traceRun(r, model)).toMatchObject({
            status: "failure",
            errorCode: withoutProxy.errorCode,
          });
          for (const says of withoutProxy.says) expect(r.error).toContain(says);
          await expectNothingLeft(step);
        },
        CASE_MS,
      );

    // Registered only for a CLI whose row says what it asks for without a model.
    const withoutModel = row.withoutModel;
    if (withoutModel)
      it.skipIf(!located)(
        `answers through the proxy with its own default model (${withoutModel.model}) when the step names none`,
        async () => {
          const provider = PROVIDER_ROWS.find((p) => p.provider === row.agent)!;
          model = await startScriptedModel({ script: { turns: writeReadTurns(provider) } });
          const r = await run({
            prompt: "Write notes/hi.txt and read it back.",
            withoutModel: true,
          });
          const trace = traceRun(r, model);
          expect(model.failures, trace).toEqual([]);
          expect(r, trace).toMatchObject({ status: "success", output: WRITE_READ_ANSWER });
          expect(r.launch.argv).not.toContain("--model");
          expect(await readFile(path.join(step.work, "notes/hi.txt"), "utf8")).toBe(
            writtenBy(provider),
          );
          expect((await readRecords(step)).map((c) => [c.tool, c.is_error])).toEqual([
            ["Write", false],
            ["Read", false],
          ]);
          expect(model.requests.map((q) => [q.api, q.view!.model])).toEqual(
            Array(3).fill([row.api, withoutModel.model]),
          );
          for (const q of model.requests)
            expect(offeredTools(q)).toEqual(
              [...BUILTINS.map(row.tool), ...withoutModel.ownTools].sort(),
            );
          await expectNothingLeft(step);
        },
        CASE_MS,
      );

    it.skipIf(!located)(
      `activates a tool found by tool_search and calls it through call_tool, or directly once the CLI offers it (tools/list_changed: ${row.listChanged})`,
      async () => {
        await useToolSearch(step);
        model = await startScriptedModel({ script: toolSearchScript(row.tool, row.listChanged) });
        const r = await run({ prompt: "Write the file.", toolNames: TOOL_SEARCH_TOOL_NAMES });
        await expectToolSearchRun(step, r, model, row.listChanged);
      },
      CASE_MS,
    );

    it.skipIf(!located)(
      "fails with EXECUTION.AGENT_NO_RESULT when the CLI is killed mid-step, leaving no process",
      async () => {
        model = await startScriptedModel(longBashScript(row.tool, step));
        const pending = run({ prompt: "Run the long command." });
        await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
        const cli = cliPid(step, agent);
        expect(cli, pidsWithEnv("HOME", step.home).map(cmdline).join("\n")).toBeDefined();
        process.kill(cli!, "SIGKILL");
        const r = await pending;
        expect(r, traceRun(r, model)).toMatchObject({
          status: "failure",
          errorCode: "EXECUTION.AGENT_NO_RESULT",
        });
        expect(r.error).toContain(
          `${entry.label} was stopped by SIGKILL without reporting a result`,
        );
        expect(r.events.flatMap((e) => (e.type === "error" ? [e.code] : []))).toEqual([
          "EXECUTION.AGENT_NO_RESULT",
        ]);
        await expectNothingLeft(step);
      },
      CASE_MS,
    );

    it.skipIf(!located)(
      "stops the CLI, its MCP server and the server's command when the step is cancelled",
      async () => {
        model = await startScriptedModel(longBashScript(row.tool, step));
        const controller = new AbortController();
        const pending = run({ prompt: "Run the long command.", signal: controller.signal });
        // The command itself runs: the CLI asked the proxy for it.
        await waitFor("the proxy's command to start", () => sleepRuns(step), 60_000);
        const running = pidsWithEnv("HOME", step.home).map(cmdline);
        expect(cliPid(step, agent), running.join("\n")).toBeDefined();
        expect(running.some((c) => c.includes("mcp-serve"))).toBe(true);
        controller.abort();
        const r = await pending;
        expect(r, traceRun(r, model)).toMatchObject({
          status: "cancelled",
          errorCode: "EXECUTION.CANCELLED",
        });
        // Lines the CLI wrote before the cancel are read to the end, not dropped (a CLI that
        // reports a call only once it is done never shows the cancelled one).
        const bash = r.events.filter((e) => e.type === "tool_use" && e.name === "Bash");
        expect(bash).toHaveLength(row.limits.toolUseOnlyWhenDone ? 0 : 1);
        await expectNothingLeft(step);
      },
      CASE_MS,
    );
  },
);

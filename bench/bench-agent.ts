/**
 * A claude agent step through the product's whole path against the same Claude Code run
 * bare, on the same one-tool-call script of the scripted model (read a file, then answer).
 * The path is the worker's (runCliStep with claudeCli): the pinned Claude Code staged for
 * the step uid, in the step sandbox with no network, reaching the model through the
 * loopback forwarder and the model gateway (per-step token, key injected, metered), its only
 * tools those of the step's `switchyard mcp-serve`, whose call comes back over the step
 * channel as a record. Bare: the same CLI and launch flags under a plain spawn, its own Read tool, no
 * MCP server, straight to the scripted model. Each run starts from a fresh HOME.
 * Without the pinned Claude Code in the agents folder the row says so.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { isAppError } from "@switchyard/core/errors";
import { startModelGateway } from "@switchyard/core/gateway";
import { createEventBus, type AttemptEvents } from "@switchyard/core/events";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import {
  buildClaudeLaunch,
  locateAgent,
  claudeCli,
  runClaude,
  runCliStep,
  stageAgent,
  writeLaunchFiles,
  type LocatedAgent,
} from "@switchyard/core/providers";
import { startScriptedModel, type Script, type ScriptedModel } from "@switchyard/scripted-model";
import { pinnedVersion, plainSpawn } from "@switchyard/testing/agents";
import { timeInTurns, type Sample } from "./measure";
import { openStepKit } from "./step-kit";

const RUNS = 5;
const MODEL = "claude-sonnet-4-5";
const KEY = "sk-ant-bench-0c5e9a71d3b2";
const MARKER = "bench-marker-51f7c2";
const PROMPT = "Read a.txt and say what it holds.";
const ANSWER = "It holds a marker line.";
const STEP_TIMEOUT_MS = 120_000;
const NAME = "claude step, one tool call (p50)";

/** One tool call, then the answer once the call's result is in; a title request gets a title. */
const oneToolCall = (call: { name: string; arguments: Record<string, unknown> }): Script => ({
  turns: [],
  rules: [
    { match: { noTools: true }, text: "A title" },
    { match: { messagesContain: MARKER }, text: ANSWER },
    { match: { pathRegex: "/messages$" }, toolCalls: [call] },
  ],
});

const claudeIn = (agentsDir: string): LocatedAgent | string => {
  try {
    return locateAgent(agentsDir, "claude", { version: pinnedVersion("claude") });
  } catch (error) {
    if (isAppError(error) && error.code === "EXECUTION.AGENT_UNAVAILABLE") return error.message;
    throw error;
  }
};

const checked = (
  model: ScriptedModel,
  what: string,
  result: { output: string; error?: string },
) => {
  if (result.error !== undefined || !result.output.includes(ANSWER) || model.failures.length > 0)
    throw new Error(
      `${what}: ${result.error ?? result.output} ${JSON.stringify(model.failures.slice(0, 2))}`,
    );
};

export const benchAgent = async (): Promise<Sample[]> => {
  const agentsDir =
    process.env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
  const claude = claudeIn(agentsDir);
  if (typeof claude === "string")
    return [{ name: NAME, unit: "ms", baseline: 0, subject: 0, skipped: claude }];

  const kit = await openStepKit("agent");
  const bareDir = path.join(kit.scratch, "bare");
  const bareWork = path.join(bareDir, "work");
  // Claude Code's own Read takes an absolute path; the proxy's takes one in the workspace.
  const bare = await startScriptedModel({
    script: oneToolCall({ name: "Read", arguments: { file_path: path.join(bareWork, "a.txt") } }),
  });
  const stepModel = await startScriptedModel({
    script: oneToolCall({ name: "mcp__switchyard__Read", arguments: { path: "a.txt" } }),
  });
  const gateway = await startModelGateway({
    socketPath: path.join(kit.scratch, "gateway.sock"),
    log: () => undefined,
  });
  try {
    const content = `${MARKER}\n`;
    await writeFile(path.join(kit.folders.workspace, "a.txt"), content, { mode: 0o644 });
    await mkdir(bareWork, { recursive: true });
    await writeFile(path.join(bareWork, "a.txt"), content);
    const emptyMcp = path.join(bareDir, "mcp.json");
    await writeFile(emptyMcp, JSON.stringify({ mcpServers: {} }));
    const staged = await stageAgent(
      agentsDir,
      "claude",
      path.join(kit.scratch, ".agents"),
      claude.version,
    );

    const runBare = async () => {
      const home = await mkdtemp(path.join(bareDir, "home-"));
      try {
        await mkdir(path.join(home, "tmp"));
        const launch = buildClaudeLaunch({
          request: { prompt: PROMPT, options: { model: MODEL, allowed_tools: ["Read"] } },
          cliPath: claude.command,
          nodeBinDir: claude.pathPrefix,
          homeDir: home,
          tmpDir: path.join(home, "tmp"),
          mcpConfigPath: emptyMcp,
          gateway: { baseUrl: bare.url, token: KEY },
          builtinsIntercepted: false,
          toolNames: [],
          runsAsRoot: process.getuid?.() === 0,
        });
        await writeLaunchFiles(launch.files, { home });
        const result = await runClaude({
          launch,
          spawn: plainSpawn({ cwd: bareWork }),
          signal: new AbortController().signal,
          timeoutMs: STEP_TIMEOUT_MS,
        });
        checked(bare, "bare Claude Code", result);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    };

    let attempt = 0;
    const runStep = async () => {
      attempt++;
      const records: ToolCallRecord[] = [];
      const events = createEventBus<AttemptEvents>();
      events.subscribe("tool.recorded", (record) => records.push(record));
      const result = await runCliStep({
        provider: claudeCli,
        request: {
          stateName: "agent",
          attemptId: `attempt-${attempt}`,
          attempt,
          path: { workflow: "bench", key: "agent", loop: [], calls: [] },
          provider: "claude",
          prompt: PROMPT,
          options: { model: MODEL },
          timeoutMs: STEP_TIMEOUT_MS,
          signal: new AbortController().signal,
        },
        proxy: {
          sandbox: kit.host,
          uid: kit.uid,
          runDir: kit.runDir,
          workspace: kit.folders.workspace,
          cli: kit.cli,
          // The worker's 10 s, stretched: a busy machine must slow the figure, not fail the bench.
          readyTimeoutMs: 60_000,
        },
        agent: staged,
        gateway,
        upstream: { baseUrl: stepModel.url, apiKey: KEY },
        events,
      });
      checked(stepModel, "the claude step", result);
      if (records.length !== 1 || records[0]!.tool !== "Read" || records[0]!.is_error)
        throw new Error(
          `the claude step recorded ${JSON.stringify(records.map((r) => [r.tool, r.is_error]))}`,
        );
      if (result.costUsd === undefined)
        throw new Error("the gateway metered no cost for the claude step");
    };

    const timed = await timeInTurns(RUNS, { bare: runBare, step: runStep });
    return [
      {
        name: NAME,
        unit: "ms",
        baseline: timed.bare.p50,
        subject: timed.step.p50,
        note: `the same Claude Code ${claude.version} bare (own Read; no proxy, gateway or sandbox); added ${(timed.step.p50 - timed.bare.p50).toFixed(0)} ms; ${RUNS} runs each`,
      },
    ];
  } finally {
    await gateway.close();
    await stepModel.close();
    await bare.close();
    await kit.close();
  }
};

/**
 * One tool call through an agent step's whole path, as an openai_compatible step makes it:
 * the worker's MCP client → `switchyard mcp-serve` in the step sandbox → the call's record
 * over the step channel back to the worker (openStepProxyClient). Against the bare proxy:
 * the same built `mcp-serve` started unsandboxed, with no channel, no record and no log
 * line. Also the step's proxy from nothing to ready (sandbox, channel, sandboxed
 * spawn, `ready`, initialize) against spawning the bare proxy to initialized.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createEventBus, type ChannelEvents } from "@switchyard/core/events";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import { openStepProxyClient, type StepProxyOptions } from "@switchyard/core/providers";
import { timeInTurns, type Sample } from "./measure";
import { openStepKit, type StepKit } from "./step-kit";

const CALLS = 1000;
const WARMUP = 100;
const OPENS = 10;
const READ = { name: "Read", arguments: { path: "a.txt" } };

/**
 * The step's proxy with a client; `call` resolves once the result and the call's record
 * are both in, and `untilResult` keeps how long the result alone took (what the agent waits).
 * `gate`: the worker's check before each call (approval rules, budgets), as a step gets it.
 */
export const openStepProxySession = async (
  kit: StepKit,
  attemptId: string,
  gate?: StepProxyOptions["gate"],
) => {
  let waiting: ((record: ToolCallRecord) => void) | undefined;
  const untilResult: number[] = [];
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (record) => waiting?.(record));
  const step = await openStepProxyClient({
    sandbox: kit.host,
    attemptId,
    uid: kit.uid,
    runDir: kit.runDir,
    workspace: kit.folders.workspace,
    cli: kit.cli,
    secrets: [],
    events,
    signal: new AbortController().signal,
    ...(gate ? { gate } : {}),
  });
  const call = async () => {
    const recorded = new Promise<ToolCallRecord>((resolve) => (waiting = resolve));
    const t0 = performance.now();
    const result = await step.client.callTool(READ);
    untilResult.push(performance.now() - t0);
    const record = await recorded;
    if (result.isError || record.tool !== "Read")
      throw new Error(`the step's Read failed: ${JSON.stringify(result)}`);
  };
  return { call, untilResult, close: step.close };
};

/** The same built proxy, unconfined: no sandbox, no channel, no record file, no log line. */
const openBareProxy = async (kit: StepKit) => {
  const config = path.join(kit.scratch, "bare-proxy.json");
  await writeFile(config, JSON.stringify({ root_dir: kit.folders.workspace, log_calls: false }));
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(kit.cli.dir, "switchyard.mjs"), "mcp-serve", "--config", config],
      stderr: "ignore",
    }),
  );
  const call = async () => {
    const result = await client.callTool(READ);
    if (result.isError) throw new Error(`the bare proxy's Read failed: ${JSON.stringify(result)}`);
  };
  return { call, close: () => client.close() };
};

export const benchToolCall = async (): Promise<Sample[]> => {
  const kit = await openStepKit("tool-call");
  try {
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of a small file`).join("\n");
    await writeFile(path.join(kit.folders.workspace, "a.txt"), text, { mode: 0o644 });

    let n = 0;
    const opened = await timeInTurns(OPENS, {
      bare: async () => (await openBareProxy(kit)).close(),
      step: async () => (await openStepProxySession(kit, `open-${n++}`)).close(),
    });

    // Both open at once, calls taking turns, so both see the same machine load.
    const bare = await openBareProxy(kit);
    const step = await openStepProxySession(kit, "calls").catch(async (error: unknown) => {
      await bare.close();
      throw error;
    });
    const { bare: bareCall, step: stepCall } = await timeInTurns(
      CALLS,
      { bare: bare.call, step: step.call },
      WARMUP,
    ).finally(async () => {
      await bare.close();
      await step.close();
    });
    const resultP50 = step.untilResult.slice(WARMUP).sort((a, b) => a - b)[Math.floor(CALLS / 2)]!;
    const added = (a: number, b: number) => `added ${(b - a).toFixed(2)} ms`;
    return [
      {
        name: "step proxy: open to ready (p50)",
        unit: "ms",
        baseline: opened.bare.p50,
        subject: opened.step.p50,
        note: `bare mcp-serve spawned to initialized; ${added(opened.bare.p50, opened.step.p50)}`,
      },
      {
        name: "tool call in the step sandbox, result (p50)",
        unit: "ms",
        baseline: bareCall.p50,
        subject: resultP50,
        note: `bare mcp-serve; what the agent waits; ${added(bareCall.p50, resultP50)}`,
      },
      {
        name: "tool call, sandbox+channel+record (p50)",
        unit: "ms",
        baseline: bareCall.p50,
        subject: stepCall.p50,
        note: `bare mcp-serve (no sandbox, channel or record); ${added(bareCall.p50, stepCall.p50)}`,
      },
      {
        name: "tool call, sandbox+channel+record (p99)",
        unit: "ms",
        baseline: bareCall.p99,
        subject: stepCall.p99,
        note: `bare mcp-serve (no sandbox, channel or record); ${added(bareCall.p99, stepCall.p99)}`,
      },
    ];
  } finally {
    await kit.close();
  }
};

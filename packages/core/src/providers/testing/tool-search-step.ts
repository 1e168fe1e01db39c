/**
 * For the real-CLI tests of tool search: the proxy's config with `tool_search` on and only
 * Read listed at first, the tool names the launch then allows (as the worker computes them:
 * every tool activation can add, plus tool_search and call_tool), and the script. The first
 * request offers Read, tool_search and call_tool but not Write; the model searches for
 * "write", then writes a file with the tool it found (directly when the CLI refreshed its
 * tool list on notifications/tools/list_changed, else through call_tool), then answers.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { expect } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { stepToolNames } from "../step/step-tools";
import { expectNothingLeft, readRecords, traceRun, type TestStep } from "./step-processes";

const INITIAL_TOOLS = ["Read"];

/** The tool names a launch gets for a step with tool search on. */
export const TOOL_SEARCH_TOOL_NAMES = stepToolNames({
  toolSearch: true,
  initialTools: INITIAL_TOOLS,
});

export const FOUND_FILE = { path: "found/by-search.txt", content: "found by tool_search\n" };
export const TOOL_SEARCH_ANSWER = "Wrote found/by-search.txt with the tool tool_search found.";

/** Turns the step's proxy config (conf/proxy.json) into one with tool search on. */
export const useToolSearch = (step: Pick<TestStep, "conf" | "work" | "records">) =>
  writeFile(
    path.join(step.conf, "proxy.json"),
    JSON.stringify({
      root_dir: step.work,
      record_file: step.records,
      tool_search: true,
      initial_tools: INITIAL_TOOLS,
    }),
  );

/**
 * What a CLI does with notifications/tools/list_changed: `refreshed`, its next model request
 * already offers the activated tool (the model calls Write directly); `refreshed-later`, it
 * lists the tools again but does not wait for that before its next request (the model calls
 * Write through call_tool, and a request two seconds later offers Write); `ignored`, it never
 * offers Write (call_tool, and a request two seconds later still does not offer it).
 */
export type ListChanged = "refreshed" | "refreshed-later" | "ignored";

/** The time the CLI has to list the tools again before its third request (the second answer's delay). */
const REFRESH_MS = 2000;

/**
 * The script, with the proxy's tools as the CLI offers them (`named("Read")` is
 * `mcp__switchyard__Read` for Claude Code).
 */
export const toolSearchScript = (named: (tool: string) => string, listChanged: ListChanged) => {
  const write = { path: FOUND_FILE.path, content: FOUND_FILE.content };
  const direct = listChanged === "refreshed";
  return {
    turns: [
      {
        label: "search",
        expect: {
          toolOffered: ["Read", "tool_search", "call_tool"].map(named),
          toolNotOffered: named("Write"),
        },
        toolCalls: [{ name: named("tool_search"), arguments: { query: "write", limit: 1 } }],
      },
      {
        label: direct ? "write" : "write through call_tool",
        expect: {
          // Write's description: tool_search found it (its text and structured result both carry it).
          lastToolResultContains: "Create a file or replace its whole content",
          ...(direct ? { toolOffered: named("Write") } : {}),
        },
        toolCalls: [
          direct
            ? { name: named("Write"), arguments: write }
            : { name: named("call_tool"), arguments: { name: "Write", arguments: write } },
        ],
        ...(direct ? {} : { delayMs: REFRESH_MS }),
      },
      {
        label: "answer",
        expect: {
          lastToolResultContains: `Wrote ${Buffer.byteLength(write.content)} bytes to ${write.path}`,
          ...(listChanged === "ignored"
            ? { toolNotOffered: named("Write") }
            : { toolOffered: named("Write") }),
        },
        text: TOOL_SEARCH_ANSWER,
      },
    ],
  };
};

type ToolSearchRan = Parameters<typeof traceRun>[0] & {
  output?: string;
  events: readonly AgentStepEvent[];
};

/**
 * Asserts what a run of toolSearchScript shows: the model's script played out (what each
 * request offered included), the answer, the file written in the workspace, the tool calls
 * the CLI reported, the proxy's records (tool_search, then Write, through call_tool unless
 * the CLI refreshed in time), and nothing of the step left running.
 */
export const expectToolSearchRun = async (
  step: TestStep,
  r: ToolSearchRan,
  model: ScriptedModel,
  listChanged: ListChanged,
) => {
  const trace = traceRun(r, model);
  expect(model.failures, trace).toEqual([]);
  expect(model.turnsLeft, trace).toBe(0);
  expect(r, trace).toMatchObject({ status: "success", output: TOOL_SEARCH_ANSWER });
  expect(await readFile(path.join(step.work, FOUND_FILE.path), "utf8")).toBe(FOUND_FILE.content);
  const via = listChanged === "refreshed" ? undefined : "call_tool";
  const uses = r.events.flatMap((e) => (e.type === "tool_use" ? [e.name] : []));
  expect(uses, trace).toEqual(["tool_search", via ?? "Write"]);
  expect((await readRecords(step)).map((c) => [c.tool, c.is_error, c.via])).toEqual([
    ["tool_search", false, undefined],
    ["Write", false, via],
  ]);
  await expectNothingLeft(step);
};

/**
 * A replayed agent attempt runs no tool: the real executor (createAgentExecutor), the built
 * `switchyard mcp-serve` in the step sandbox and the scripted model. An openai_compatible
 * attempt is recorded first (Write, a Bash that appends to a marker file twice, a connector
 * tool of a real MCP server on loopback that counts its calls), then replayed from those
 * records: the agent gets the recorded results (two identical calls take the two recordings
 * in order), the workspace and the connector's count are untouched, and the connectors are
 * not even resolved; a call with other arguments gets USER.REPLAY.NO_RECORDING. With
 * `live_builtins` such a built-in runs live (recorded `live`) while a connector tool still
 * does not. The claude CLI, through the same executor and the model gateway, replays too.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { startScriptedModel, type ScriptInput } from "@switchyard/scripted-model";
import {
  agentsDirOf,
  installedAgent,
  openCliStepKit,
  type CliStepKit,
} from "@switchyard/testing/agents";
import { loopbackEgressFetch } from "@switchyard/testing/egress";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { buildStepCatalog } from "../../connectors/build-step-catalog";
import { McpConnectorHost } from "../../connectors/mcp-connector-host";
import type { ToolCallRecord } from "../../mcp";
import type { RecordedCall, ReplayPlan } from "../../replay/replay-book";
import { makeStepFolders, type StepFolders } from "../../sandbox";
import { Scrubber } from "../../secrets";
import type { CatalogEntry } from "../../tools";
import type { AgentRequest } from "../../workflow";
import { createAgentExecutor } from "./agent-executor";
import { createAgentStaging } from "./agent-staging";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const AGENTS_DIR = agentsDirOf(process.env);
const BASH = { command: 'echo run >> marker.txt; echo "runs=$(wc -l < marker.txt)"' };
const WRITE = { path: "notes.txt", content: "written by the agent\n" };

let kit: CliStepKit;
let folders: StepFolders;
let runDir: string;
let counter: { url: string; calls: number; server: Server };
let catalog: CatalogEntry[];
let resolved = 0;
let attemptNo = 0;

/** A real MCP server over streamable HTTP (stateless) whose one tool counts the calls it runs. */
const startCountingServer = async () => {
  const state = { calls: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const mcp = new McpServer({ name: "counting", version: "1.0.0" });
      mcp.registerTool(
        "bump",
        { description: "Add n to the counter", inputSchema: { n: z.number() } },
        ({ n }) => {
          state.calls++;
          return Promise.resolve({
            content: [{ type: "text", text: `bumped by ${n}, call ${state.calls}` }],
          });
        },
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => void transport.close().then(() => mcp.close()));
      const body =
        chunks.length > 0
          ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown)
          : undefined;
      void mcp.connect(transport).then(() => transport.handleRequest(req, res, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    get calls() {
      return state.calls;
    },
  };
};

const connectorHost = () =>
  new McpConnectorHost({
    connectors: [{ id: "ctr", kind: "http", url: counter.url }],
    httpFetch: loopbackEgressFetch("connector"),
  });

beforeAll(async () => {
  kit = await openCliStepKit("agent-replay", process.env);
  runDir = path.join(kit.scratch, "run1");
  folders = await makeStepFolders(runDir, kit.uid === undefined ? undefined : { uid: kit.uid });
  counter = await startCountingServer();
  const probe = connectorHost();
  try {
    ({ catalog } = await buildStepCatalog({
      host: probe,
      gate: { allows: () => true },
      lane: "default",
      connectors: ["ctr"],
    }));
  } finally {
    await probe.close();
  }
}, 300_000);

afterAll(async () => {
  counter?.server.close();
  await kit?.close();
});

beforeEach(async () => {
  for (const file of ["marker.txt", "notes.txt", "other.txt"])
    await rm(path.join(folders.workspace, file), { force: true });
});

type Ports = { replay?: ReplayPlan; modelUrl?: string };

/** The executor as the worker builds it, with the records of its attempts kept in `records`. */
const executor = (records: ToolCallRecord[], ports: Ports = {}) =>
  createAgentExecutor({
    sandbox: kit.host,
    uid: kit.uid,
    runDir,
    workspace: folders.workspace,
    scrubber: new Scrubber(),
    staging: createAgentStaging({
      cliDist: path.join(REPO, "packages/cli/dist/"),
      agentsDir: AGENTS_DIR,
      cliStageDir: () => Promise.resolve(kit.scratch),
      agentsStageDir: () =>
        Promise.resolve(kit.uid === undefined ? undefined : path.join(kit.scratch, ".agents")),
    }),
    gateway: () => Promise.resolve(kit.gateway),
    upstream: () =>
      Promise.resolve(
        ports.modelUrl
          ? { baseUrl: ports.modelUrl, apiKey: "sk-ant-scripted-key-0000" }
          : undefined,
      ),
    openAiAccess: (request) =>
      Promise.resolve({
        apiKey: "sk-scripted",
        allowedEndpoints: [String(request.options.base_url)],
      }),
    stepConnectors: () => {
      resolved++;
      return Promise.resolve({
        host: connectorHost(),
        gate: { allows: () => true },
        lane: "default",
        catalog,
        secrets: [],
      });
    },
    subscribe: (_request, events) => {
      events.subscribe("tool.recorded", (r) => void records.push(r));
      return {};
    },
    ...(ports.replay ? { replay: ports.replay } : {}),
    messages: { notConfigured: () => "no key", where: "here" },
  });

const request = (provider: string, options: Record<string, unknown>): AgentRequest => ({
  stateName: "agent",
  attemptId: `attempt-${++attemptNo}`,
  attempt: 1,
  path: { workflow: "replay", key: "agent", loop: [], calls: [] },
  provider,
  prompt: "Do the recorded work.",
  options,
  mcpProxy: {
    enable: true,
    interceptBuiltins: true,
    connectors: ["ctr"],
    initialTools: [],
    toolSearch: false,
  },
  signal: new AbortController().signal,
});

type Call = { name: string; arguments: Record<string, unknown>; sees?: string };

/** The turns of one tool call each (each next turn checks what the agent saw), then "done". */
const turns = (calls: Call[]): ScriptInput => [
  ...calls.map((call, i) => ({
    ...(i > 0 && calls[i - 1]!.sees
      ? { expect: { lastToolResultContains: calls[i - 1]!.sees! } }
      : {}),
    toolCalls: [{ name: call.name, arguments: call.arguments }],
  })),
  {
    ...(calls.at(-1)?.sees ? { expect: { lastToolResultContains: calls.at(-1)!.sees! } } : {}),
    text: "done",
  },
];

/**
 * One attempt of `provider` against a scripted model playing `calls`: it must play them all
 * and answer "done". Returns the proxy's records and the model's requests.
 */
const attempt = async (
  provider: "openai_compatible" | "claude",
  calls: Call[],
  replay?: ReplayPlan,
) => {
  const model = await startScriptedModel({ host: "127.0.0.1", script: turns(calls) });
  try {
    const records: ToolCallRecord[] = [];
    const options =
      provider === "claude"
        ? { model: "claude-sonnet-4-5" }
        : { base_url: `${model.url}/v1`, model: "scripted-1" };
    const result = await executor(records, {
      ...(replay ? { replay } : {}),
      modelUrl: model.url,
    }).execute(request(provider, options));
    expect(model.failures).toEqual([]);
    expect(result.output).toBe("done");
    return { records, requests: model.requests };
  } finally {
    await model.close();
  }
};

const marks = (records: ToolCallRecord[]) => records.map((r) => [r.tool, r.is_error, r.replay]);

let recordings: RecordedCall[];

it("records an openai_compatible attempt that writes, appends to a marker twice and calls a connector", async () => {
  const { records } = await attempt("openai_compatible", [
    { name: "Write", arguments: WRITE },
    { name: "Bash", arguments: BASH, sees: "runs=1" },
    { name: "Bash", arguments: BASH, sees: "runs=2" },
    { name: "ctr_bump", arguments: { n: 1 }, sees: "bumped by 1, call 1" },
  ]);
  expect(records.map((r) => [r.tool, r.source, r.is_error, r.replay])).toEqual([
    ["Write", "builtin", false, undefined],
    ["Bash", "builtin", false, undefined],
    ["Bash", "builtin", false, undefined],
    ["ctr_bump", "ctr", false, undefined],
  ]);
  expect(await readFile(path.join(folders.workspace, "marker.txt"), "utf8")).toBe("run\nrun\n");
  expect(counter.calls).toBe(1);
  recordings = records.map((r) => ({
    tool: r.tool,
    arguments: r.arguments,
    result: r.result,
    isError: r.is_error,
  }));
}, 120_000);

it("replays it from the recordings: the agent gets the recorded results and nothing runs", async () => {
  const before = { calls: counter.calls, resolved };
  const { records, requests } = await attempt(
    "openai_compatible",
    [
      // Arguments in another key order match all the same.
      { name: "Write", arguments: { content: WRITE.content, path: WRITE.path } },
      { name: "Bash", arguments: BASH, sees: "runs=1" },
      { name: "Bash", arguments: BASH, sees: "runs=2" },
      { name: "ctr_bump", arguments: { n: 1 }, sees: "bumped by 1, call 1" },
      {
        name: "Write",
        arguments: { path: "other.txt", content: "x" },
        sees: "USER.REPLAY.NO_RECORDING",
      },
      { name: "ctr_bump", arguments: { n: 1 }, sees: "USER.REPLAY.NO_RECORDING" },
    ],
    { recordings, unmatched: "error", catalog },
  );
  // The connector's tool was offered from the recorded catalog; the connector was not resolved.
  expect(JSON.stringify(requests[0]?.body)).toContain("ctr_bump");
  expect(marks(records)).toEqual([
    ["Write", false, "recorded"],
    ["Bash", false, "recorded"],
    ["Bash", false, "recorded"],
    ["ctr_bump", false, "recorded"],
    ["Write", true, "unmatched"],
    ["ctr_bump", true, "unmatched"],
  ]);
  expect(records[4]?.error_type).toBe("USER.REPLAY.NO_RECORDING");
  for (const file of ["marker.txt", "notes.txt", "other.txt"])
    expect(existsSync(path.join(folders.workspace, file))).toBe(false);
  expect({ calls: counter.calls, resolved }).toEqual(before);
}, 120_000);

it("runs a built-in with no recording left live with live_builtins, never a connector tool", async () => {
  const before = { calls: counter.calls, resolved };
  const { records } = await attempt(
    "openai_compatible",
    [
      { name: "Bash", arguments: BASH, sees: "runs=1" },
      { name: "Bash", arguments: BASH, sees: "runs=2" },
      // A third identical call: no recording left, so it runs, on a marker nothing wrote yet.
      { name: "Bash", arguments: BASH, sees: "runs=1" },
      { name: "ctr_bump", arguments: { n: 2 }, sees: "USER.REPLAY.NO_RECORDING" },
    ],
    { recordings, unmatched: "live_builtins", catalog },
  );
  expect(marks(records)).toEqual([
    ["Bash", false, "recorded"],
    ["Bash", false, "recorded"],
    ["Bash", false, "live"],
    ["ctr_bump", true, "unmatched"],
  ]);
  expect(await readFile(path.join(folders.workspace, "marker.txt"), "utf8")).toBe("run\n");
  expect({ calls: counter.calls, resolved }).toEqual(before);
}, 120_000);

const claude = installedAgent(
  AGENTS_DIR,
  "claude",
  (line) => console.log(`[agent-replay] ${line}`),
  process.env,
);

it.skipIf(!claude)(
  "replays a claude attempt through the same executor and the model gateway",
  async () => {
    const before = { calls: counter.calls, resolved };
    const named = (tool: string) => `mcp__switchyard__${tool}`;
    const { records } = await attempt(
      "claude",
      [
        { name: named("Bash"), arguments: BASH, sees: "runs=1" },
        { name: named("ctr_bump"), arguments: { n: 1 }, sees: "bumped by 1, call 1" },
        { name: named("Read"), arguments: { path: "other.txt" }, sees: "USER.REPLAY.NO_RECORDING" },
      ],
      { recordings, unmatched: "error", catalog },
    );
    expect(marks(records)).toEqual([
      ["Bash", false, "recorded"],
      ["ctr_bump", false, "recorded"],
      ["Read", true, "unmatched"],
    ]);
    expect(existsSync(path.join(folders.workspace, "marker.txt"))).toBe(false);
    expect({ calls: counter.calls, resolved }).toEqual(before);
  },
  180_000,
);

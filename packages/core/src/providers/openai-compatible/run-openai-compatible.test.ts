/**
 * The openai_compatible driver end to end over loopback: the scripted model speaks Chat
 * Completions (streaming, or JSON from rules), the real `switchyard mcp-serve` serves the
 * tools through the real SDK client, and the workspace is a temp folder.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  fingerprint,
  startScriptedModel,
  type ScriptedModel,
  type ScriptInput,
} from "@switchyard/scripted-model";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import type { AgentStepEvent } from "../agent-events";
import { runOpenAiCompatible, type OpenAiCompatibleLimits } from "./run-openai-compatible";
import { toolProxyFromClient } from "./tool-proxy";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const ENTRY = path.join(REPO, "packages/cli/src/mcp-serve-command-entry.ts");
const KEY = "sk-oc-test-7d1e5b93a0c4";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];

let dir: string;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c().catch(() => undefined)));
});

/** A real `switchyard mcp-serve` over stdio, its workspace under `dir`, with the SDK client. */
const startProxy = async (name: string, extra: Record<string, unknown> = {}) => {
  const root = path.join(dir, name);
  await mkdir(root);
  const config = path.join(dir, `${name}.json`);
  const records = path.join(dir, `${name}.records.jsonl`);
  await writeFile(
    config,
    JSON.stringify({ root_dir: root, record_file: records, log_calls: false, ...extra }),
  );
  const client = new Client({ name: "openai-compatible-test", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", ENTRY, "--config", config],
      cwd: REPO,
      stderr: "pipe",
    }),
  );
  const readOnce = async () =>
    (await readFile(records, "utf8").catch(() => ""))
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { tool: string; is_error: boolean });
  // The proxy appends a call's record after it has answered the call: wait for `atLeast`.
  const readRecords = async (atLeast = 0) => {
    const deadline = Date.now() + 10_000;
    let found = await readOnce();
    while (found.length < atLeast && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      found = await readOnce();
    }
    return found;
  };
  return { client, root, readRecords };
};
type Proxy = Awaited<ReturnType<typeof startProxy>>;

let shared: Proxy;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-oc-"));
  // Bash runs in a sandbox of its own: as root its step uid must be able to reach the workspace.
  await chmod(dir, 0o711);
  shared = await startProxy("shared");
}, 60_000);
afterAll(async () => {
  await shared.client.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const startModel = async (script: ScriptInput) => {
  const model = await startScriptedModel({ script });
  cleanups.push(() => model.close());
  return model;
};

type RunOptions = {
  proxy?: Proxy;
  prompt?: string;
  systemPrompt?: string;
  options?: Record<string, unknown>;
  signal?: AbortSignal;
  timeoutMs?: number;
  limits?: Partial<OpenAiCompatibleLimits>;
  allowed?: string[];
  onEvent?: (event: AgentStepEvent) => void;
};

const run = async (model: ScriptedModel, o: RunOptions = {}) => {
  const events: AgentStepEvent[] = [];
  const result = await runOpenAiCompatible({
    request: {
      stateName: "agent",
      attemptId: "a1-000000",
      attempt: 1,
      path: { workflow: "test", key: "/agent", loop: [], calls: [] },
      provider: "openai_compatible",
      prompt: o.prompt ?? "Do the task.",
      ...(o.systemPrompt === undefined ? {} : { systemPrompt: o.systemPrompt }),
      options: { base_url: `${model.url}/v1`, model: "scripted-1", ...o.options },
      signal: o.signal ?? new AbortController().signal,
      ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    },
    tools: toolProxyFromClient((o.proxy ?? shared).client),
    allowedEndpoints: o.allowed ?? [`${model.url}/v1`],
    apiKey: KEY,
    onEvent: (e) => {
      events.push(e);
      o.onEvent?.(e);
    },
    limits: { retryBaseDelayMs: 20, ...o.limits },
  });
  return { result, events };
};

const of = <T extends AgentStepEvent["type"]>(events: AgentStepEvent[], type: T) =>
  events.filter((e): e is Extract<AgentStepEvent, { type: T }> => e.type === type);

describe("runOpenAiCompatible with the real proxy", () => {
  it("drives Write, Read and Bash through the proxy, streams events and sums usage", async () => {
    const model = await startModel([
      {
        expect: { toolOffered: BUILTINS, systemContains: "Be careful.", model: "scripted-1" },
        text: "Writing the note.",
        toolCalls: [{ name: "Write", arguments: { path: "notes/hi.txt", content: "hello\n" } }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      {
        expect: { lastToolResultContains: "Wrote 6 bytes" },
        toolCalls: [{ name: "Read", arguments: { path: "notes/hi.txt" } }],
        usage: { inputTokens: 20, outputTokens: 6 },
      },
      {
        expect: { lastToolResultContains: "hello" },
        toolCalls: [{ name: "Bash", arguments: { command: "tr a-z A-Z < notes/hi.txt" } }],
        usage: { inputTokens: 30, outputTokens: 7 },
      },
      {
        expect: { lastToolResultContains: "HELLO" },
        text: "The note says hello, in capitals: HELLO.",
        usage: { inputTokens: 40, outputTokens: 8 },
      },
    ]);
    const { result, events } = await run(model, { systemPrompt: "Be careful." });

    expect(model.failures).toEqual([]);
    expect(result).toMatchObject({
      status: "success",
      output: "The note says hello, in capitals: HELLO.",
      exitCode: 0,
      turns: 4,
      tokensInput: 100,
      tokensOutput: 26,
      tokensUsed: 126,
    });
    expect(result.tokensEstimated).toBeUndefined();
    expect(await readFile(path.join(shared.root, "notes/hi.txt"), "utf8")).toBe("hello\n");
    expect(of(events, "tool_use").map((e) => [e.name, e.arguments])).toEqual([
      ["Write", { path: "notes/hi.txt", content: "hello\n" }],
      ["Read", { path: "notes/hi.txt" }],
      ["Bash", { command: "tr a-z A-Z < notes/hi.txt" }],
    ]);
    const results = of(events, "tool_result");
    expect(results.map((e) => e.isError)).toEqual([false, false, false]);
    expect(results.map((e) => e.id)).toEqual(of(events, "tool_use").map((e) => e.id));
    expect(results[2]!.text).toContain("HELLO");
    expect(of(events, "usage").map((e) => [e.inputTokens, e.outputTokens])).toEqual([
      [10, 5],
      [20, 6],
      [30, 7],
      [40, 8],
    ]);
    // Text arrives in pieces as the stream is read (the scripted model sends 24 characters a chunk).
    expect(of(events, "text").map((e) => e.text)).toEqual([
      "Writing the note.",
      "The note says hello, in ",
      "capitals: HELLO.",
    ]);
    expect(events.at(-1)).toEqual({
      type: "final",
      text: "The note says hello, in capitals: HELLO.",
    });

    for (const request of model.requests) {
      expect(request.auth).toEqual([
        { header: "authorization", scheme: "Bearer", fingerprint: fingerprint(KEY) },
      ]);
      expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    }
    // The assistant's tool calls and the tool results went back with matching ids.
    const last = model.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    expect(last.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(last.messages[3]!.tool_call_id).toBe(
      (last.messages[2]!.tool_calls as { id: string }[])[0]!.id,
    );
    expect(JSON.stringify({ events, result })).not.toContain(KEY);
    const records = await shared.readRecords();
    expect(records.slice(-3).map((r) => [r.tool, r.is_error])).toEqual([
      ["Write", false],
      ["Read", false],
      ["Bash", false],
    ]);
  });

  it("returns a refused path to the model as a tool error, and the model goes on", async () => {
    const model = await startModel([
      { toolCalls: [{ name: "Read", arguments: { path: "/etc/shadow" } }] },
      {
        expect: { lastToolResultContains: "outside the workspace" },
        toolCalls: [{ name: "Read", arguments: { path: "../shared.json" } }],
      },
      {
        expect: { lastToolResultContains: "outside the workspace" },
        text: "I may not read those files.",
      },
    ]);
    const { result, events } = await run(model);
    expect(model.failures).toEqual([]);
    expect(result).toMatchObject({ status: "success", output: "I may not read those files." });
    const results = of(events, "tool_result");
    expect(results.map((e) => e.isError)).toEqual([true, true]);
    expect(results[0]!.text).toMatch(/^Error: Read refused: \/etc\/shadow: outside the workspace/);
    expect(results.map((e) => e.text).join("")).not.toMatch(/root:/);
  });

  it("answers invalid JSON arguments, an unoffered tool and call_tool around allowed_tools with error text", async () => {
    const proxy = await startProxy("search", { tool_search: true, initial_tools: ["Read"] });
    cleanups.push(() => proxy.client.close());
    const completion = (calls: { name: string; arguments: string }[]) => ({
      id: "chatcmpl-raw",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: calls.map((c, i) => ({ id: `raw_${i}`, type: "function", function: c })),
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    const model = await startModel({
      // A JSON answer to a streaming request: the driver reads it as one completion.
      rules: [
        {
          match: { messagesContain: "PLEASE" },
          times: 1,
          json: completion([
            { name: "Read", arguments: '{"path": "a.txt"' },
            { name: "Bash", arguments: '{"command": "touch pwned"}' },
            {
              name: "call_tool",
              arguments: '{"name": "Bash", "arguments": {"command": "touch pwned"}}',
            },
          ]),
        },
      ],
      turns: [
        {
          expect: {
            toolOffered: ["Read", "call_tool"],
            toolNotOffered: ["tool_search", "Bash"],
            lastToolResultContains: 'Tool "Bash" is not allowed in this step.',
          },
          text: "Understood.",
        },
      ],
    });
    const { result, events } = await run(model, {
      proxy,
      prompt: "PLEASE try",
      options: { allowed_tools: "read, call_tool" },
    });
    expect(model.failures).toEqual([]);
    expect(result).toMatchObject({ status: "success", output: "Understood.", turns: 2 });
    expect(result.tokensInput).toBeGreaterThanOrEqual(3);
    expect(of(events, "tool_result").map((e) => [e.id, e.isError, e.text])).toEqual([
      [
        "raw_0",
        true,
        expect.stringMatching(
          /^Error: The arguments for Read are not valid JSON \(.+\)\. Call it again/,
        ),
      ],
      [
        "raw_1",
        true,
        'Error: Tool "Bash" is not available in this step. Available tools: Read, call_tool.',
      ],
      ["raw_2", true, 'Error: Tool "Bash" is not allowed in this step.'],
    ]);
    expect(of(events, "tool_use")[0]!.arguments).toBe('{"path": "a.txt"');
    // None of them reached the proxy.
    expect(await proxy.readRecords()).toEqual([]);
    expect(existsSync(path.join(proxy.root, "pwned"))).toBe(false);
  });

  it("offers a tool activated by tool_search on the next turn, and calls it", async () => {
    const proxy = await startProxy("activate", { tool_search: true, initial_tools: ["Read"] });
    cleanups.push(() => proxy.client.close());
    await writeFile(path.join(proxy.root, "x.md"), "# x\n");
    const model = await startModel([
      {
        expect: { toolOffered: ["Read", "tool_search", "call_tool"], toolNotOffered: "Glob" },
        toolCalls: [{ name: "tool_search", arguments: { query: "glob" } }],
      },
      {
        expect: { toolOffered: ["Read", "Glob"], lastToolResultContains: "Glob" },
        toolCalls: [{ name: "Glob", arguments: { pattern: "*.md" } }],
      },
      { expect: { lastToolResultContains: "x.md" }, text: "Found x.md." },
    ]);
    const { result } = await run(model, { proxy });
    expect(model.failures).toEqual([]);
    expect(result).toMatchObject({ status: "success", output: "Found x.md." });
    expect((await proxy.readRecords(2)).map((r) => [r.tool, r.is_error])).toEqual([
      ["tool_search", false],
      ["Glob", false],
    ]);
  });

  it("fails with USER.MCP_PROXY.INFINITE_LOOP_GUARD after 25 turns of tool calls, without running the last", async () => {
    const turns = Array.from({ length: 25 }, () => ({
      toolCalls: [{ name: "Glob", arguments: { pattern: "*.none" } }],
      usage: { inputTokens: 2, outputTokens: 1 },
    }));
    const model = await startModel(turns);
    const { result, events } = await run(model);
    expect(model.failures).toEqual([]);
    expect(model.requests).toHaveLength(25);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.MCP_PROXY.INFINITE_LOOP_GUARD",
      exitCode: 1,
      turns: 25,
      tokensInput: 50,
      tokensOutput: 25,
    });
    expect(result.error).toMatch(/^USER\.MCP_PROXY\.INFINITE_LOOP_GUARD: .*after 25 turns/);
    expect(of(events, "tool_use")).toHaveLength(24);
  });

  it("stops at options.max_turns, and on tool_calls without a call", async () => {
    const model = await startModel(
      Array.from({ length: 3 }, () => ({
        toolCalls: [{ name: "Glob", arguments: { pattern: "*" } }],
      })),
    );
    const { result } = await run(model, { options: { max_turns: "2" } });
    expect(result).toMatchObject({ errorCode: "USER.MCP_PROXY.INFINITE_LOOP_GUARD", turns: 2 });

    const empty = await startModel({
      turns: [],
      rules: [
        {
          match: { api: "openai-chat" },
          json: {
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: null },
                finish_reason: "tool_calls",
              },
            ],
          },
        },
      ],
    });
    const second = await run(empty);
    expect(second.result).toMatchObject({
      errorCode: "USER.MCP_PROXY.INFINITE_LOOP_GUARD",
      turns: 1,
    });
    expect(second.result.error).toMatch(/sent none/);
  });
});

describe("runOpenAiCompatible against a difficult endpoint", () => {
  it("waits as a 429's Retry-After asks, then succeeds", async () => {
    const model = await startModel([
      { error: { status: 429, headers: { "retry-after": "1" }, message: "slow down" } },
      { text: "after the wait", usage: { inputTokens: 4, outputTokens: 3 } },
    ]);
    const { result, events } = await run(model);
    expect(result).toMatchObject({ status: "success", output: "after the wait", tokensInput: 4 });
    expect(of(events, "retry")).toEqual([
      { type: "retry", attempt: 2, delayMs: 1000, status: 429, message: "HTTP 429: slow down" },
    ]);
    const [first, second] = model.requests.map((r) => Date.parse(r.at));
    expect(second! - first!).toBeGreaterThanOrEqual(950);
  });

  it("retries 500 and 503 with backoff, then succeeds; gives up after the attempts", async () => {
    const model = await startModel([
      { error: { status: 500, message: "boom" } },
      { error: { status: 503, message: "overloaded" } },
      { text: "recovered" },
    ]);
    const { result, events } = await run(model);
    expect(result).toMatchObject({ status: "success", output: "recovered", turns: 1 });
    expect(of(events, "retry").map((e) => [e.attempt, e.status])).toEqual([
      [2, 500],
      [3, 503],
    ]);

    const failing = await startModel([
      { error: { status: 502, message: "bad gateway" } },
      { error: { status: 502, message: "bad gateway" } },
    ]);
    const second = await run(failing, { limits: { maxAttempts: 2 } });
    expect(second.result).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.PROVIDER.UNAVAILABLE",
      retryable: true,
      exitCode: 3,
    });
    expect(second.result.error).toMatch(/after 2 attempts \(HTTP 502: bad gateway\)/);
  });

  it("fails at once on a Retry-After longer than a step waits", async () => {
    const model = await startModel([
      { error: { status: 429, headers: { "retry-after": "3600" }, message: "quota" } },
    ]);
    const { result } = await run(model);
    expect(result.errorCode).toBe("EXECUTION.PROVIDER.UNAVAILABLE");
    expect(result.error).toMatch(/asks to wait 3600 s/);
    expect(model.requests).toHaveLength(1);
  });

  it("fails on a 4xx with the body's message, the key scrubbed, without retrying", async () => {
    const model = await startModel([
      { error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } },
    ]);
    const { result, events } = await run(model);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
      error:
        "USER.PROVIDER.REQUEST_REJECTED: the model endpoint refused the request (HTTP 401): Incorrect API key provided: [REDACTED].",
    });
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify({ result, events })).not.toContain(KEY);
  });

  it("abandons a response over the size cap", async () => {
    const model = await startModel([{ text: "x".repeat(20_000) }]);
    const { result } = await run(model, { limits: { maxResponseBytes: 4096 } });
    expect(result.errorCode).toBe("EXECUTION.PROVIDER.RESPONSE_TOO_LARGE");
    expect(result.error).toMatch(/larger than 4096 bytes/);
  });

  it("times out a request that does not answer, and a step past its timeout", async () => {
    const model = await startModel([{ text: "late", delayMs: 20_000 }]);
    const { result } = await run(model, { limits: { requestTimeoutMs: 300 } });
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.TIMEOUT" });
    expect(result.error).toMatch(/did not answer within 0.3 s/);

    const slow = await startModel([{ text: "late", delayMs: 20_000 }]);
    const step = await run(slow, { timeoutMs: 300 });
    expect(step.result.errorCode).toBe("EXECUTION.TIMEOUT");
    expect(step.result.error).toMatch(/step did not finish within 0.3 s/);
  });

  it("ends promptly with a cancelled result when the step is cancelled mid-request", async () => {
    const model = await startModel([{ text: "never", delayMs: 60_000 }]);
    const controller = new AbortController();
    const started = Date.now();
    const pending = run(model, { signal: controller.signal });
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const { result } = await pending;
    expect(result).toMatchObject({
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
      output: "",
      turns: 1,
    });
    // Well before the model would have answered.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("does not follow a redirect away from the allowed endpoint", async () => {
    const hits: string[] = [];
    const elsewhere = await listen(
      createServer((req, res) => void (hits.push(req.url ?? ""), res.end("{}"))),
    );
    const redirecting = await listen(
      createServer((_req, res) => {
        res.writeHead(307, { location: `${elsewhere.url}/v1/chat/completions` });
        res.end();
      }),
    );
    const model = { url: redirecting.url } as ScriptedModel;
    const { result } = await run(model);
    expect(result.errorCode).toBe("USER.PROVIDER.REQUEST_REJECTED");
    expect(result.error).toMatch(/HTTP 307, a redirect to .* which is not followed/);
    expect(hits).toEqual([]);
  });

  it("refuses an endpoint the team does not allow, or a step without a model, before any request", async () => {
    const model = await startModel([{ text: "unused" }]);
    const refused = await run(model, {
      options: { base_url: `http://127.0.0.1.evil.com:${model.port}/v1` },
    }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("USER.PROVIDER.ENDPOINT_NOT_ALLOWED");
    const noModel = await run(model, { options: { model: "" } }).catch((e: unknown) => e);
    expect(isAppError(noModel) && noModel.code).toBe("USER.INPUT.VALIDATION_FAILED");
    expect(model.requests).toEqual([]);
  });
});

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

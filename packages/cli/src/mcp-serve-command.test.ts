import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ENTRY = path.join(REPO, "packages/cli/src/mcp-serve-command-entry.ts");

let dir: string;
let root: string;
let records: string;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-serve-"));
  // Bash runs in a sandbox of its own: as root its step uid must be able to reach root_dir.
  await chmod(dir, 0o711);
  root = path.join(dir, "ws");
  records = path.join(dir, "records.jsonl");
  await mkdir(root);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await rm(dir, { recursive: true, force: true });
});

const writeConfig = async (extra: Record<string, unknown> = {}) => {
  const file = path.join(dir, "config.json");
  await writeFile(
    file,
    JSON.stringify({ root_dir: root, record_file: records, log_calls: false, ...extra }),
  );
  return file;
};

const start = async (extra: Record<string, unknown> = {}) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", ENTRY, "--config", await writeConfig(extra)],
    cwd: REPO,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
};

const readRecords = async () =>
  (await readFile(records, "utf8").catch(() => ""))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const waitFor = async <T>(fn: () => Promise<T | undefined>, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Host pids of `sleep <arg>`: found from outside whatever pid namespace the command is in. */
const sleepers = (arg: string) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, "utf8") === `sleep\0${arg}\0`;
      } catch {
        return false;
      }
    })
    .map(Number);
const uniqueSleep = (seconds: number) => `${seconds}.${String(Math.random()).slice(2, 10)}`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const text = (r: unknown) =>
  ((r as { content: unknown }).content as { type: string; text?: string }[])
    .map((b) => b.text ?? "")
    .join("");

describe("switchyard mcp-serve over stdio with the SDK client", () => {
  it("serves the built-ins and writes one scrubbed record per call, parented to the traceparent", async () => {
    const { client } = await start({
      trace: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Glob",
      "Grep",
    ]);
    const token = `ghp_${"A".repeat(36)}`;
    await client.callTool({
      name: "Write",
      arguments: { path: "n.txt", content: `token ${token}` },
    });
    const read = await client.callTool({ name: "Read", arguments: { path: "n.txt" } });
    expect(text(read)).toBe(`token ${token}`);
    const refused = await client.callTool({ name: "Read", arguments: { path: "../config.json" } });
    expect(refused.isError).toBe(true);
    await expect(client.callTool({ name: "Nope", arguments: {} })).rejects.toThrow(
      /Unknown tool: Nope/,
    );
    await client.ping();
    const recs = await waitFor(async () =>
      (await readRecords()).length >= 4 ? readRecords() : undefined,
    );
    expect(recs.map((r) => [r.tool, r.source, r.is_error, r.error_type])).toEqual([
      ["Write", "builtin", false, null],
      ["Read", "builtin", false, null],
      ["Read", "builtin", true, "tool_error"],
      ["Nope", "proxy", true, "unknown_tool"],
    ]);
    for (const r of recs) {
      expect(r.fidelity).toBe("proxy");
      expect(r.trace_id).toBe("0af7651916cd43dd8448eb211c80319c");
      expect(r.parent_span_id).toBe("b7ad6b7169203331");
      expect(r.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(typeof r.duration_ms).toBe("number");
    }
    expect(JSON.stringify(recs)).not.toContain(token);
    expect(JSON.stringify(recs[0]!.arguments)).toContain("[REDACTED]");
  });

  it("serves only the built-ins the config lists", async () => {
    const { client } = await start({ builtins: ["Grep", "Read"] });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["Grep", "Read"]);
    await expect(client.callTool({ name: "Bash", arguments: { command: "id" } })).rejects.toThrow(
      /Unknown tool: Bash/,
    );
  });

  it("round-trips 256 KiB of arguments intact and caps large results with a note", async () => {
    const { client } = await start();
    const content = Array.from({ length: 256 * 1024 }, (_, i) =>
      String.fromCharCode(97 + (i % 26)),
    ).join("");
    await client.callTool({ name: "Write", arguments: { path: "big.txt", content } });
    expect(await readFile(path.join(root, "big.txt"), "utf8")).toBe(content);
    const read = await client.callTool({ name: "Read", arguments: { path: "big.txt" } });
    expect(text(read)).toMatch(
      /\n\[switchyard: output cut at [\d,]+ of 262,144 bytes; the full text \(1 line\) is in \.switchyard\/results\/[0-9a-f]+\.txt;/,
    );
    const rec = await waitFor(async () => (await readRecords()).find((r) => r.tool === "Write"));
    expect((rec.arguments as { truncated: boolean }).truncated).toBe(true);
  });

  it("paginates tools/list and answers connector tools without a channel with a readable error", async () => {
    const catalog = Array.from({ length: 150 }, (_, i) => ({
      name: `c_t${i}`,
      description: `tool ${i}`,
      connector: "c",
      tool: `t${i}`,
    }));
    const { client } = await start({ catalog });
    const first = await client.listTools();
    expect(first.tools).toHaveLength(100);
    expect(first.nextCursor).toBeDefined();
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools).toHaveLength(56);
    expect(second.nextCursor).toBeUndefined();
    const r = await client.callTool({ name: "c_t3", arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/UNKNOWN_CONNECTOR.*step channel/);
  });

  it("tool search: starts with initial tools, activates matches, sends list_changed, call_tool runs them", async () => {
    const catalog = [{ name: "c_t1", description: "never called", connector: "c", tool: "t1" }];
    const { client } = await start({ tool_search: true, initial_tools: ["Read"], catalog });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "Read",
      "tool_search",
      "call_tool",
    ]);
    const found = await client.callTool({
      name: "tool_search",
      arguments: { query: "find glob", limit: 10 },
    });
    expect(
      (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name),
    ).toEqual(["Glob"]);
    expect(text(found)).toContain('"inputSchema"');
    await waitFor(async () => (changed > 0 ? true : undefined));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("Glob");
    await writeFile(path.join(root, "x.md"), "");
    expect(
      text(
        await client.callTool({
          name: "call_tool",
          arguments: { name: "Glob", arguments: { pattern: "*.md" } },
        }),
      ),
    ).toBe("x.md");
    const inactive = await client.callTool({
      name: "call_tool",
      arguments: { name: "Bash", arguments: { command: "id" } },
    });
    expect(inactive.isError).toBe(true);
    await expect(client.callTool({ name: "Bash", arguments: { command: "id" } })).rejects.toThrow(
      /Unknown tool/,
    );
    const recs = await waitFor(async () =>
      (await readRecords()).length >= 4 ? readRecords() : undefined,
    );
    expect(recs.map((r) => [r.tool, r.via ?? null, r.error_type])).toEqual([
      ["tool_search", null, null],
      ["Glob", "call_tool", null],
      ["Bash", "call_tool", "unknown_tool"],
      ["Bash", null, "unknown_tool"],
    ]);
    // A call through call_tool is recorded with its target's own arguments, as a direct call is.
    expect(recs[1]!.arguments).toEqual({ pattern: "*.md" });
  });

  it("cancels a running call: the command is killed and the record says cancelled", async () => {
    const { client } = await start();
    const controller = new AbortController();
    const arg = uniqueSleep(30);
    const call = client.callTool(
      { name: "Bash", arguments: { command: `exec sleep ${arg}` } },
      undefined,
      { signal: controller.signal },
    );
    await waitFor(async () => (sleepers(arg).length > 0 ? true : undefined), 15_000);
    controller.abort();
    await expect(call).rejects.toThrow();
    const rec = await waitFor(async () => (await readRecords()).find((r) => r.tool === "Bash"));
    expect(rec.error_type).toBe("cancelled");
    await waitFor(async () => (sleepers(arg).length > 0 ? undefined : true));
  });
});

describe("hostile patterns through the proxy", () => {
  const evil = `${"a".repeat(40)}!`;
  const braces = `${"{*,*}".repeat(8)}!`;

  it("answers a brace-and-star Glob, and the same as Grep's glob, while serving other calls", async () => {
    const { client } = await start();
    await writeFile(path.join(root, "a".repeat(40)), "hello\n");
    const [glob, grep, read] = await Promise.all([
      client.callTool({ name: "Glob", arguments: { pattern: braces } }),
      client.callTool({ name: "Grep", arguments: { pattern: "hello", glob: braces } }),
      client.callTool({ name: "Read", arguments: { path: "a".repeat(40) } }),
    ]);
    expect(text(glob)).toBe(`No files match ${braces}`);
    expect(text(grep)).toBe("No matches");
    expect(text(read)).toBe("hello");
    await writeFile(path.join(root, evil), "hello\n");
    expect(text(await client.callTool({ name: "Glob", arguments: { pattern: braces } }))).toBe(
      evil,
    );
  });

  it("stops a backtracking Grep regex at its budget with the code, answering a later call first", async () => {
    const { client } = await start();
    await writeFile(path.join(root, "evil.txt"), `${evil}\n`);
    const order: string[] = [];
    const grep = client
      .callTool({ name: "Grep", arguments: { pattern: "^(a+)+$", output_mode: "content" } })
      .then((r) => (order.push("Grep"), r));
    const read = client
      .callTool({ name: "Read", arguments: { path: "evil.txt" } })
      .then((r) => (order.push("Read"), r));
    expect(text(await read)).toBe(evil);
    const r = await grep;
    expect(order).toEqual(["Read", "Grep"]);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /^Grep stopped: USER\.PATTERN\.TIMEOUT: pattern took longer than 10000 ms; the regular expression is too slow/,
    );
  });
});

describe("mcp-serve lifecycle and startup errors", () => {
  const spawnServe = async (config: string) =>
    spawn(process.execPath, ["--import", "tsx", ENTRY, "--config", config], {
      cwd: REPO,
      stdio: ["pipe", "pipe", "pipe"],
    });
  const exitOf = (child: ReturnType<typeof spawn>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      let stderr = "";
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ code, stderr }));
    });

  it("rejects an unknown config key with exit 1 and a one-line reason", async () => {
    const child = await spawnServe(await writeConfig({ rot_dir: "/x" }));
    const { code, stderr } = await exitOf(child);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/USER\.MCP_PROXY\.UNKNOWN_KEY/);
  });

  it("refuses a replay without a step channel, and an unknown replay setting", async () => {
    const cases: [unknown, RegExp][] = [
      [{ unmatched: "error" }, /replay: needs a step channel/],
      [{ unmatched: "live" }, /replay\.unmatched/],
      [{ unmatched: "error", book: [] }, /USER\.MCP_PROXY\.UNKNOWN_KEY/],
    ];
    for (const [replay, reason] of cases) {
      const { code, stderr } = await exitOf(await spawnServe(await writeConfig({ replay })));
      expect(code).toBe(1);
      expect(stderr).toMatch(reason);
    }
  });

  it("fails at startup on a name collision", async () => {
    const child = await spawnServe(
      await writeConfig({ catalog: [{ name: "Read", connector: "files", tool: "read" }] }),
    );
    const { code, stderr } = await exitOf(child);
    expect(code).toBe(1);
    expect(stderr).toMatch(/NAME_COLLISION.*builtin \(Read\).*files \(Read\)/);
  });

  it("ends on stdin close, and on SIGTERM within 5 s with its children gone", async () => {
    await writeFile(path.join(root, "h.txt"), "hello\n");
    const a = await spawnServe(await writeConfig());
    const aExit = exitOf(a);
    let out = "";
    a.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const init = {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "pipe", version: "1" },
    };
    a.stdin.end(
      [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: init },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "Grep", arguments: { pattern: "hel+o", output_mode: "content" } },
        },
      ]
        .map((m) => JSON.stringify(m))
        .join("\n") + "\n",
    );
    expect((await aExit).code).toBe(0);
    // A client that closes stdin right after its last request still gets the quick replies.
    expect(out).toContain("h.txt:1:hello");

    const { client, transport } = await start();
    const arg = uniqueSleep(60);
    const call = client
      .callTool({ name: "Bash", arguments: { command: `exec sleep ${arg}` } })
      .catch(() => undefined);
    await waitFor(async () => (sleepers(arg).length > 0 ? true : undefined), 15_000);
    const started = Date.now();
    process.kill(transport.pid!, "SIGTERM");
    await waitFor(async () => (alive(transport.pid!) ? undefined : true), 6000);
    expect(Date.now() - started).toBeLessThan(5500);
    expect(sleepers(arg)).toEqual([]);
    await call;
  });
});

/**
 * The built `switchyard mcp-serve` over stdio for clients of both protocol eras: the v2 SDK
 * client of 2026-07-28 (probing on a sibling process as the SDK does, and on the proxy's own
 * pipe as a client with a transport of its own does) and the v1 SDK client of the 2025
 * revisions, each writing and reading a file in the workspace through the built-ins.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSwitchyardBin, CLI_BIN } from "@switchyard/testing/agents";

let dir: string;
let root: string;
let config: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(buildSwitchyardBin, 120_000);
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-eras-"));
  root = path.join(dir, "ws");
  await mkdir(root);
  config = path.join(dir, "config.json");
  await writeFile(
    config,
    JSON.stringify({
      root_dir: root,
      builtins: ["Read", "Write"],
      record_file: path.join(dir, "records.jsonl"),
      log_calls: false,
    }),
  );
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => undefined)));
  await rm(dir, { recursive: true, force: true });
});

const serve = { command: process.execPath, args: [CLI_BIN, "mcp-serve", "--config"] };
const text = (r: unknown) =>
  (r as { content: { text?: string }[] }).content.map((b) => b.text ?? "").join("");
const versionsRecorded = async () =>
  (await readFile(path.join(dir, "records.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { tool: string; protocol_version: string }).protocol_version);

/** What the test needs of a client of either SDK. */
type ToolClient = {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
};

/** Writes a file through the proxy, reads it back, and checks it on disk. */
const writeAndRead = async (client: ToolClient, file: string) => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["Read", "Write"]);
  const written = await client.callTool({
    name: "Write",
    arguments: { path: file, content: `hello from ${file}\n` },
  });
  expect((written as { isError?: boolean }).isError).not.toBe(true);
  const read = await client.callTool({ name: "Read", arguments: { path: path.join(root, file) } });
  expect(text(read)).toContain(`hello from ${file}`);
  expect(await readFile(path.join(root, file), "utf8")).toBe(`hello from ${file}\n`);
};

describe("switchyard mcp-serve for both protocol eras", () => {
  it("serves the v2 client in 2026-07-28, which probes on a sibling process and then calls without initialize", async () => {
    const client = new ModernClient(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    closers.push(() => client.close());
    await client.connect(
      new ModernStdio({ ...serve, args: [...serve.args, config], stderr: "ignore" }),
      { timeout: 20_000 },
    );
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await writeAndRead(client, "modern.txt");
    expect(await versionsRecorded()).toEqual(["2026-07-28", "2026-07-28"]);
  });

  it("serves a 2026-07-28 client that probes with server/discover on the proxy's own pipe", async () => {
    const child = spawn(serve.command, [...serve.args, config], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    closers.push(async () => {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    });
    const client = new ModernClient(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    closers.push(() => client.close());
    // The v1 SDK's stdio transport works over any pair of streams: here, the child's pipes.
    await client.connect(new StdioServerTransport(child.stdout, child.stdin), { timeout: 20_000 });
    expect(client.getProtocolEra()).toBe("modern");
    await writeAndRead(client, "in-place.txt");
    expect(await versionsRecorded()).toEqual(["2026-07-28", "2026-07-28"]);
  });

  it("still serves the v1 client of the 2025 revisions through initialize", async () => {
    const client = new Client({ name: "legacy", version: "1" });
    closers.push(() => client.close());
    await client.connect(
      new StdioClientTransport({ ...serve, args: [...serve.args, config], stderr: "ignore" }),
    );
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    await writeAndRead(client, "legacy.txt");
    expect(await versionsRecorded()).toEqual(["2025-11-25", "2025-11-25"]);
  });
});

import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxShellRunner } from "../tools";
import type { ToolCallRecord } from "./call-record";
import { loadProxyConfig } from "./proxy-config";
import { serveProxy } from "./serve-proxy";

/** The client's end of the proxy's stdio, over in-process streams. */
class StreamClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  start(): Promise<void> {
    this.input.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.output.end();
    this.onclose?.();
    return Promise.resolve();
  }
}

let dir: string;
let root: string;
let recordFile: string;
let running: { client: Client; done: Promise<unknown> } | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-cap-"));
  root = path.join(dir, "ws");
  recordFile = path.join(dir, "records.jsonl");
  await mkdir(root);
});
afterEach(async () => {
  if (running) {
    await running.client.close();
    await running.done;
    running = undefined;
  }
  await rm(dir, { recursive: true, force: true });
});

const configOf = async (raw: Record<string, unknown>) => {
  const file = path.join(dir, "config.json");
  await writeFile(file, JSON.stringify(raw));
  return loadProxyConfig(file);
};

const start = async (extra: Record<string, unknown> = {}) => {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const config = await configOf({
    root_dir: root,
    record_file: recordFile,
    sandbox: "inherit",
    log_calls: false,
    ...extra,
  });
  const done = serveProxy({
    config,
    stdin: toServer,
    stdout: fromServer,
    shellEnv: { PATH: "/usr/bin:/bin" },
    shell: sandboxShellRunner,
  });
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamClientTransport(fromServer, toServer));
  running = { client, done };
  return client;
};

const text = (r: unknown) =>
  (r as { content: { type: string; text?: string }[] }).content.map((b) => b.text ?? "").join("");

const records = async (): Promise<ToolCallRecord[]> => {
  for (let i = 0; i < 100; i++) {
    const lines = (await readFile(recordFile, "utf8").catch(() => "")).split("\n").filter(Boolean);
    if (lines.length > 0) return lines.map((l) => JSON.parse(l) as ToolCallRecord);
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
};

const MARKER =
  /\n\[switchyard: output cut at ([\d,]+) of ([\d,]+) bytes; the full text \(([\d,]+) lines\) is in (\.switchyard\/results\/[0-9a-f]+\.txt); Read it with offset\/limit, continuing at offset (\d+)\]$/;
const num = (s: string) => Number(s.replaceAll(",", ""));

const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join("");

describe("results over the cap", () => {
  it("caps 300 KB of Bash output at 64 KiB with a marker, keeps the whole text in a workspace file Read can page", async () => {
    const client = await start();
    const full = `exit code 0\nstdout:\n${seq(60_000)}`;
    expect(Buffer.byteLength(full)).toBeGreaterThan(300_000);

    const result = await client.callTool({ name: "Bash", arguments: { command: "seq 1 60000" } });
    const shown = text(result);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(63 * 1024);
    const marker = MARKER.exec(shown);
    expect(marker, shown.slice(-400)).not.toBeNull();
    const [, keptBytes, totalBytes, lines, file, offset] = marker!;
    expect(num(totalBytes!)).toBe(Buffer.byteLength(full));
    expect(num(lines!)).toBe(60_002);
    const head = shown.slice(0, marker!.index);
    expect(Buffer.byteLength(head)).toBe(num(keptBytes!));
    expect(full.startsWith(head)).toBe(true);

    expect(await readFile(path.join(root, file!), "utf8")).toBe(full);
    const st = await stat(path.join(root, file!));
    expect(st.mode & 0o777).toBe(0o644);
    expect((await stat(path.join(root, ".switchyard/results"))).mode & 0o777).toBe(0o755);

    // The offset the marker names continues right after the last whole line shown.
    const next = await client.callTool({
      name: "Read",
      arguments: { path: file, offset: Number(offset), limit: 3 },
    });
    const wholeLines = head.slice(0, head.lastIndexOf("\n") + 1);
    expect(full.startsWith(`${wholeLines}${text(next).split("\n[")[0]}\n`)).toBe(true);
    const deep = await client.callTool({
      name: "Read",
      arguments: { path: file, offset: 50_002, limit: 3 },
    });
    expect(text(deep)).toMatch(/^50000\n50001\n50002\n\[/);

    const [rec] = (await records()).filter((r) => r.tool === "Bash");
    expect(rec!.result_cut).toEqual({ bytes: Buffer.byteLength(full), file });
    expect(rec!.span_id).toBe(path.basename(file!, ".txt"));
  });

  it("leaves a result under the cap untouched and writes no file", async () => {
    const client = await start();
    const result = await client.callTool({ name: "Bash", arguments: { command: "seq 1 1000" } });
    expect(text(result)).toBe(`exit code 0\nstdout:\n${seq(1000)}`);
    expect(await readdir(root)).toEqual([]);
    const [rec] = await records();
    expect(rec).not.toHaveProperty("result_cut");
  });

  it("still caps when the full text cannot be kept, and says so", async () => {
    await writeFile(path.join(root, ".switchyard"), "a file where the folder would go\n");
    const client = await start();
    const result = await client.callTool({ name: "Bash", arguments: { command: "seq 1 60000" } });
    expect(result.isError).toBeFalsy();
    const shown = text(result);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(64 * 1024);
    expect(shown).toMatch(
      /\n\[switchyard: output cut at [\d,]+ of [\d,]+ bytes; the full text could not be kept \(.+\); narrow the call to see the rest\]$/,
    );
    expect(shown.startsWith("exit code 0\nstdout:\n1\n2\n3\n")).toBe(true);
    const [rec] = await records();
    expect(rec!.result_cut).toEqual({ bytes: expect.any(Number) as number, file: null });
  });

  it("cuts at a UTF-8 boundary", async () => {
    const client = await start();
    const result = await client.callTool({
      name: "Bash",
      arguments: { command: "printf '€%.0s' $(seq 1 40000)" },
    });
    const shown = text(result);
    const marker = MARKER.exec(shown);
    expect(marker).not.toBeNull();
    const head = shown.slice(0, marker!.index);
    expect(head).not.toContain("\ufffd");
    expect(head).toMatch(/^exit code 0\nstdout:\n€+$/);
    expect(await readFile(path.join(root, marker![4]!), "utf8")).toBe(
      `exit code 0\nstdout:\n${"€".repeat(40_000)}`,
    );
  });

  it("points to Grep and Bash when the first line alone is over the cap", async () => {
    const line = "x".repeat(200_000);
    await writeFile(path.join(root, "one-line.txt"), line);
    const client = await start();
    const shown = text(
      await client.callTool({ name: "Read", arguments: { path: "one-line.txt" } }),
    );
    const marker =
      /\n\[switchyard: output cut at [\d,]+ of 200,000 bytes; the full text \(1 line\) is in (\S+); its first line alone is over the cap, so Read cannot page it: search it with Grep or slice it with Bash \(head -c, tail -c\)\]$/.exec(
        shown,
      );
    expect(marker, shown.slice(-300)).not.toBeNull();
    expect(await readFile(path.join(root, marker![1]!), "utf8")).toBe(line);
  });

  it("takes the cap from result_cap_bytes", async () => {
    const client = await start({ result_cap_bytes: 8192 });
    const result = await client.callTool({ name: "Bash", arguments: { command: "seq 1 5000" } });
    const shown = text(result);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(8192);
    expect(shown).toMatch(MARKER);
  });

  it("validates result_cap_bytes like the other fields", async () => {
    const base = { root_dir: root };
    expect((await configOf({ ...base, result_cap_bytes: 4096 })).result_cap_bytes).toBe(4096);
    for (const bad of [100, 1.5, "64k", 64 * 1024 * 1024])
      await expect(configOf({ ...base, result_cap_bytes: bad })).rejects.toMatchObject({
        code: "USER.INPUT.VALIDATION_FAILED",
        message: expect.stringMatching(/result_cap_bytes/) as string,
      });
  });
});

/**
 * The MCP proxy (`switchyard mcp-serve`, the built bin) against a bare SDK stdio server with
 * the same tool (bench/fixtures/bare-read-server.mjs), in the same run: spawn to initialized,
 * `tools/call Read` latency with recording on, a connector call through the step channel
 * against calling the connector directly, and the idle resident memory of each process.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  McpConnectorHost,
  buildStepCatalog,
  catalogForConfig,
} from "@switchyard/core/connectors/host";
import { startStepChannel } from "@switchyard/core/mcp";
import { timeIt, type Sample } from "./measure";
import { buildCli } from "./step-kit";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(REPO, "packages/cli");
const DIST = path.join(CLI, "dist");
const BIN = path.join(CLI, "bin/switchyard.mjs");
const BARE = path.join(REPO, "bench/fixtures/bare-read-server.mjs");
const EVERYTHING = path.join(
  REPO,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

const SPAWNS = 30;
const CALLS = 2000;
const CONNECTOR_CALLS = 500;
const WARMUP = 100;

type Server = { command: string; args: string[]; env?: Record<string, string> };

const connect = async (server: Server) => {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    ...(server.env ? { env: server.env } : {}),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  return { client, pid: transport.pid! };
};

const rssMb = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kb / 1024;
};

const distIsCurrent = () => {
  try {
    const manifest = JSON.parse(readFileSync(path.join(DIST, "inputs.json"), "utf8")) as {
      started_at: number;
      inputs: string[];
    };
    return manifest.inputs.every(
      (input) => statSync(path.resolve(DIST, input)).mtimeMs <= manifest.started_at,
    );
  } catch {
    return false;
  }
};

const callLatency = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  n: number,
) => {
  for (let i = 0; i < WARMUP; i++) await client.callTool({ name, arguments: args });
  return timeIt(n, () => client.callTool({ name, arguments: args }));
};

export const benchProxy = async (): Promise<Sample[]> => {
  buildCli();

  const dir = await mkdtemp(path.join(tmpdir(), "sy-bench-proxy-"));
  const root = path.join(dir, "ws");
  await mkdir(root);
  await writeFile(
    path.join(root, "a.txt"),
    Array.from({ length: 40 }, (_, i) => `line ${i + 1} of a small file`).join("\n"),
  );
  const config = path.join(dir, "config.json");
  // Recording on: one JSONL record per call, plus the structured log line on stderr.
  await writeFile(
    config,
    JSON.stringify({ root_dir: root, record_file: path.join(dir, "records.jsonl") }),
  );
  const bare: Server = { command: process.execPath, args: [BARE, root] };
  const proxy: Server = { command: process.execPath, args: [BIN, "mcp-serve", "--config", config] };
  const sourceProxy: Server = { ...proxy, env: { SWITCHYARD_NO_DIST: "1" } };
  const samples: Sample[] = [];
  const host = new McpConnectorHost({
    connectors: [
      { id: "everything", kind: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
    ],
  });
  try {
    // Spawn to initialized, interleaved so both see the same machine load.
    const spawnBare: number[] = [];
    const spawnProxy: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      for (const [server, into] of [
        [bare, spawnBare],
        [proxy, spawnProxy],
      ] as const) {
        const t0 = performance.now();
        const { client } = await connect(server);
        into.push(performance.now() - t0);
        await client.close();
      }
    }
    const fromSources = await timeIt(5, async () => (await connect(sourceProxy)).client.close());
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const initBare = p50(spawnBare);
    const initProxy = p50(spawnProxy);
    samples.push({
      name: "proxy spawn to initialized (p50)",
      unit: "ms",
      baseline: initBare,
      subject: initProxy,
      note: "bare SDK stdio server; target ≤ 1.3x",
    });
    samples.push({
      name: "proxy spawn, from sources via tsx (p50)",
      unit: "ms",
      baseline: initBare,
      subject: fromSources.p50,
      note: "bare SDK stdio server; the bin without dist/",
    });

    // tools/call Read on the same file, one client each, sequential calls.
    const b = await connect(bare);
    const p = await connect(proxy);
    const bareCall = await callLatency(b.client, "Read", { path: "a.txt" }, CALLS);
    const proxyCall = await callLatency(p.client, "Read", { path: "a.txt" }, CALLS);
    await b.client.close();
    await p.client.close();
    samples.push({
      name: "tools/call Read p50, recording on",
      unit: "ms",
      baseline: bareCall.p50,
      subject: proxyCall.p50,
      note: `bare SDK server; added ${(proxyCall.p50 - bareCall.p50).toFixed(2)} ms, target ≤ 0.3`,
    });
    samples.push({
      name: "tools/call Read p99, recording on",
      unit: "ms",
      baseline: bareCall.p99,
      subject: proxyCall.p99,
      note: `bare SDK server; added ${(proxyCall.p99 - bareCall.p99).toFixed(2)} ms, target ≤ 2`,
    });

    // A connector tool (server-everything's echo over stdio): directly, and through the proxy
    // and the reference step channel with the connector host behind it.
    const direct = await connect({ command: process.execPath, args: [EVERYTHING, "stdio"] });
    const directCall = await callLatency(direct.client, "echo", { message: "hi" }, CONNECTOR_CALLS);
    await direct.client.close();
    const gate = { allows: () => true };
    const { catalog } = await buildStepCatalog({
      host,
      gate,
      lane: "bench",
      connectors: ["everything"],
    });
    const channel = await startStepChannel({ host, gate, lane: "bench", catalog, dir });
    const channelConfig = path.join(dir, "channel.json");
    await writeFile(
      channelConfig,
      JSON.stringify({
        root_dir: root,
        catalog: catalogForConfig(catalog),
        channel: { path: channel.path, token: channel.token },
      }),
    );
    const viaChannel = await connect({
      ...proxy,
      args: [BIN, "mcp-serve", "--config", channelConfig],
    });
    await channel.ready;
    const channelCall = await callLatency(
      viaChannel.client,
      "everything_echo",
      { message: "hi" },
      CONNECTOR_CALLS,
    );
    await viaChannel.client.close();
    await channel.close();
    samples.push({
      name: "connector call p50, through the channel",
      unit: "ms",
      baseline: directCall.p50,
      subject: channelCall.p50,
      note: `server-everything echo called directly; added ${(channelCall.p50 - directCall.p50).toFixed(2)} ms`,
    });
    samples.push({
      name: "connector call p99, through the channel",
      unit: "ms",
      baseline: directCall.p99,
      subject: channelCall.p99,
      note: `server-everything echo called directly; added ${(channelCall.p99 - directCall.p99).toFixed(2)} ms`,
    });

    // Idle resident memory: a fresh process of each, initialized and listed, then left alone.
    const idleBare = await connect(bare);
    const idleProxy = await connect(proxy);
    await idleBare.client.listTools();
    await idleProxy.client.listTools();
    await new Promise((r) => setTimeout(r, 1000));
    const memBare = await rssMb(idleBare.pid);
    const memProxy = await rssMb(idleProxy.pid);
    await idleBare.client.close();
    await idleProxy.client.close();
    samples.push({
      name: "idle resident memory (VmRSS)",
      unit: "MB",
      baseline: memBare,
      subject: memProxy,
      note: "bare SDK server; target < 80 MB",
    });
    if (!distIsCurrent()) {
      for (const s of samples)
        s.note = `${s.note ?? ""} (sources changed during the run: some spawns used tsx)`;
    }
    return samples;
  } finally {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
};

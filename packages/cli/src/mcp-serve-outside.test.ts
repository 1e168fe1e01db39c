/**
 * The built `switchyard mcp-serve` against programs written by others: the reference step
 * channel hosting `@modelcontextprotocol/server-everything` as a connector (over stdio and
 * over streamable HTTP) with the SDK client calling its tools through the proxy, and
 * `@modelcontextprotocol/inspector` in CLI mode as an outside client. Also checks that the
 * bin runs the bundle in dist/ only while it is current.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
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
import type { ConnectorSpec } from "@switchyard/core/connectors";
import { createEventBus, type ChannelEvents } from "@switchyard/core/events";
import { startStepChannel, type StepChannel, type ToolCallRecord } from "@switchyard/core/mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loopbackEgressFetch } from "@switchyard/testing/egress";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO = path.resolve(CLI, "../..");
const BIN = path.join(CLI, "bin/switchyard.mjs");
const DIST = path.join(CLI, "dist");

const packageBin = (name: string) => {
  const dir = path.join(REPO, "node_modules", name);
  const { bin } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  return path.join(dir, Object.values(bin)[0]!);
};
const EVERYTHING = packageBin("@modelcontextprotocol/server-everything");
const INSPECTOR = packageBin("@modelcontextprotocol/inspector");

const CREDENTIAL = "everything-credential-4c1d8e";

/** Same rule as the bin: dist is current when no input changed after the build started. */
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });

const text = (r: unknown) =>
  (r as { content: { text?: string }[] }).content.map((b) => b.text ?? "").join("");

const waitFor = async <T>(fn: () => T | undefined, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

let httpEverything: ChildProcess;
let httpUrl: string;

beforeAll(async () => {
  if (!distIsCurrent()) {
    const build = spawnSync(process.execPath, [path.join(CLI, "bin/build.mjs")], {
      cwd: CLI,
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  }
  const port = await freePort();
  httpEverything = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    httpEverything.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(`listening on port ${port}`)) resolve();
    });
    httpEverything.once("exit", (code) =>
      reject(new Error(`server-everything exited ${code}: ${seen}`)),
    );
  });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => {
  httpEverything?.kill("SIGTERM");
});

let dir: string;
let host: McpConnectorHost;
let channel: StepChannel | undefined;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-outside-"));
  await mkdir(path.join(dir, "ws"));
  const connectors: ConnectorSpec[] = [
    {
      id: "everything",
      kind: "stdio",
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      env: { SY_MARKER: "marker-visible-to-the-connector" },
      cwd: REPO,
      credentialEnv: "EVERYTHING_TOKEN",
    },
    { id: "web", kind: "http", url: httpUrl },
  ];
  host = new McpConnectorHost({
    connectors,
    credentials: { resolve: async () => CREDENTIAL },
    httpFetch: loopbackEgressFetch("connector"),
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await channel?.close();
  channel = undefined;
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A step with the given connectors: the reference channel and an mcp-serve config for it. */
const step = async (connectors: string[]) => {
  const records: ToolCallRecord[] = [];
  const gate = { allows: () => true };
  const { catalog, unavailable } = await buildStepCatalog({
    host,
    gate,
    lane: "default",
    connectors,
  });
  expect(unavailable).toEqual([]);
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (r) => records.push(r));
  channel = await startStepChannel({
    host,
    gate,
    lane: "default",
    catalog,
    secrets: [CREDENTIAL],
    events,
    dir,
  });
  const config = path.join(dir, "config.json");
  await writeFile(
    config,
    JSON.stringify({
      root_dir: path.join(dir, "ws"),
      catalog: catalogForConfig(catalog),
      channel: { path: channel.path, token: channel.token },
      log_calls: false,
    }),
  );
  return { records, config, channel };
};

const connect = async (config: string) => {
  const client = new Client({ name: "outside-test", version: "1" });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp-serve", "--config", config],
      cwd: dir,
      stderr: "pipe",
    }),
  );
  return client;
};

describe("server-everything as a connector through the step channel", () => {
  it("over stdio: lists its tools under the connector's names and runs them, the credential scrubbed", async () => {
    const { records, config, channel: ch } = await step(["everything"]);
    const client = await connect(config);
    const ready = await ch.ready;
    expect(ready.tools).toEqual(
      expect.arrayContaining(["Read", "everything_echo", "everything_get-sum"]),
    );
    const listed = (await client.listTools()).tools;
    expect(listed.find((t) => t.name === "everything_echo")?.description).toBe(
      "Echoes back the input string",
    );
    expect(
      text(
        await client.callTool({
          name: "everything_echo",
          arguments: { message: "via the channel" },
        }),
      ),
    ).toBe("Echo: via the channel");
    expect(
      text(await client.callTool({ name: "everything_get-sum", arguments: { a: 2, b: 40 } })),
    ).toContain("42");
    // get-env returns the connector's whole environment: the credential the host put there
    // must come back scrubbed, while the rest arrives intact.
    const env = text(await client.callTool({ name: "everything_get-env", arguments: {} }));
    expect(env).toContain("marker-visible-to-the-connector");
    expect(env).not.toContain(CREDENTIAL);
    expect(env).toContain("[REDACTED]");
    const rec = await waitFor(() => records.find((r) => r.tool === "everything_get-env"));
    expect(rec).toMatchObject({ source: "everything", fidelity: "proxy", is_error: false });
    expect(JSON.stringify(records)).not.toContain(CREDENTIAL);
  });

  it("over streamable HTTP: runs its tools and returns upstream validation failures as tool errors", async () => {
    const { records, config } = await step(["web"]);
    const client = await connect(config);
    expect(
      text(await client.callTool({ name: "web_echo", arguments: { message: "over http" } })),
    ).toBe("Echo: over http");
    expect(
      text(await client.callTool({ name: "web_get-sum", arguments: { a: 1.5, b: 2 } })),
    ).toContain("3.5");
    const bad = await client.callTool({ name: "web_get-sum", arguments: { a: "x" } });
    expect(bad.isError).toBe(true);
    const rec = await waitFor(() => records.find((r) => r.tool === "web_get-sum" && r.is_error));
    expect(rec.source).toBe("web");
  });
});

describe("the inspector (CLI mode) as an outside client of the built mcp-serve", () => {
  // Spawned asynchronously: the step channel answering the proxy lives in this process.
  // The inspector exits 5 when a tool returns isError, with the result still on stdout.
  const inspect = (args: string[], config: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [INSPECTOR, "--cli", ...args, "--", process.execPath, BIN, "mcp-serve", "--config", config],
        {
          cwd: dir,
          env: { ...process.env, HOME: dir, MCP_CATALOG_PATH: path.join(dir, "catalog.json") },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.once("error", reject);
      child.once("close", (code) => {
        if (code === 0 || code === 5) resolve(JSON.parse(out) as Record<string, unknown>);
        else reject(new Error(`inspector exited ${code}: ${err}${out}`));
      });
    });

  it("lists the built-ins and calls them, each call recorded", async () => {
    const records = path.join(dir, "records.jsonl");
    const config = path.join(dir, "plain.json");
    await writeFile(
      config,
      JSON.stringify({ root_dir: path.join(dir, "ws"), record_file: records, log_calls: false }),
    );
    const listed = (await inspect(["--method", "tools/list"], config)) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((t) => t.name)).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Glob",
      "Grep",
    ]);
    await inspect(
      [
        "--method",
        "tools/call",
        "--tool-name",
        "Write",
        "--tool-arg",
        "path=notes/a.txt",
        "content=from the inspector",
      ],
      config,
    );
    expect(await readFile(path.join(dir, "ws/notes/a.txt"), "utf8")).toBe("from the inspector");
    const read = await inspect(
      ["--method", "tools/call", "--tool-name", "Read", "--tool-arg", "path=notes/a.txt"],
      config,
    );
    expect(text(read)).toBe("from the inspector");
    const refused = await inspect(
      ["--method", "tools/call", "--tool-name", "Read", "--tool-arg", "path=../plain.json"],
      config,
    );
    expect(refused.isError).toBe(true);
    const lines = (await readFile(records, "utf8")).trim().split("\n");
    expect(lines.map((l) => JSON.parse(l) as { tool: string; is_error: boolean })).toMatchObject([
      { tool: "Write", is_error: false },
      { tool: "Read", is_error: false },
      { tool: "Read", is_error: true },
    ]);
  });

  it("calls a server-everything tool through the proxy and the channel", async () => {
    const { records, config } = await step(["everything"]);
    const result = await inspect(
      [
        "--method",
        "tools/call",
        "--tool-name",
        "everything_echo",
        "--tool-arg",
        "message=hello from outside",
      ],
      config,
    );
    expect(text(result)).toBe("Echo: hello from outside");
    const rec = await waitFor(() => records.find((r) => r.tool === "everything_echo"));
    expect(rec).toMatchObject({ source: "everything", is_error: false });
  });
});

describe("the bin", () => {
  // A copy of the bin and dist/ away from the sources and node_modules: it can only work by
  // running the self-contained bundle, and must refuse the bundle once an input is newer.
  it("runs the bundle while its inputs are unchanged and falls back to the sources after", async () => {
    const copy = path.join(dir, "cli");
    await cp(path.join(CLI, "bin"), path.join(copy, "bin"), { recursive: true });
    await cp(DIST, path.join(copy, "dist"), { recursive: true });
    const input = path.join(copy, "input.ts");
    await writeFile(input, "// an input\n");
    const past = new Date(Date.now() - 60_000);
    await utimes(input, past, past);
    const manifest = JSON.parse(await readFile(path.join(copy, "dist/inputs.json"), "utf8")) as {
      started_at: number;
      inputs: string[];
    };
    manifest.started_at = Date.now();
    manifest.inputs = ["../input.ts"];
    await writeFile(path.join(copy, "dist/inputs.json"), JSON.stringify(manifest));
    const run = () =>
      spawnSync(process.execPath, [path.join(copy, "bin/switchyard.mjs"), "--help"], {
        cwd: dir,
        encoding: "utf8",
      });
    const built = run();
    expect(built.status).toBe(0);
    expect(built.stdout).toContain("mcp-serve");
    await writeFile(input, "// changed after the build\n");
    const stale = run();
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toMatch(/tsx/);
  });
});

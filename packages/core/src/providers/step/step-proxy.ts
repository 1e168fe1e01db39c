/**
 * What an agent step runs on: a sandbox session of its own (the run's uid and workspace, a
 * private HOME and /tmp, the owner tag `<worker>/<run>/<attempt>` that the run's reap
 * covers), the step channel with its socket bound into that sandbox only, and the proxy
 * `switchyard mcp-serve` from the built CLI under node, which the agent CLI starts as its
 * MCP server (claude) or the worker starts itself with an SDK client over its stdio
 * (openai_compatible). The proxy's config holds no secret. `close()` undoes it all in
 * order: client, proxy stdin, channel, session (reap, then remove). The worker and
 * `switchyard run` both run agent steps on it.
 */
import { chmod, chown, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { catalogForConfig } from "../../connectors/build-step-catalog";
import type { ConnectorHost, LaneGate } from "../../connectors/connector-host";
import { AppError } from "../../errors";
import type { ChannelEventEmitter } from "../../events";
import { startStepChannel, type ProxyConfig, type StepChannel } from "../../mcp";
import {
  openSandboxSession,
  runOwnerId,
  type SandboxBind,
  type SandboxHost,
  type SandboxProcess,
  type SandboxSession,
} from "../../sandbox";
import { BUILTIN_NAMES, CALL_TOOL, TOOL_SEARCH, type CatalogEntry } from "../../tools";
import type { McpProxyConfig } from "../../workflow/workflow-types";

const CLI_INSIDE = "/opt/switchyard/cli";
const CONFIG_INSIDE = "/etc/switchyard/proxy.json";
const CHANNEL_INSIDE = "/run/switchyard/channel.sock";
const READY_TIMEOUT_MS = 10_000;
const STDERR_TAIL = 4096;

export type BuiltCli = { dir: string; entry: string; stale: boolean };

/**
 * The build's launcher, which packages/cli/bin/build.mjs writes next to the bundle:
 * `node <dir>/switchyard.mjs mcp-serve …` runs the bundle's `main`. A staged copy gets one
 * of its own, for the entry that was found, whatever build came meanwhile.
 */
const LAUNCHER = "switchyard.mjs";
const launcher = (entry: string) =>
  `const { main } = await import(${JSON.stringify(`./${entry}`)});\nprocess.exitCode = await main(process.argv.slice(2));\n`;
const REBUILD = "run `node packages/cli/bin/build.mjs`";

/**
 * The built CLI in `dir` (packages/cli/dist, which packages/cli/bin/build.mjs makes), bound
 * read-only into the sandbox as it is, or from a staged copy (stageBuiltCli); `stale` when
 * a source it was built from changed since.
 */
export const findBuiltCli = async (dir: string): Promise<BuiltCli> => {
  let manifest: { entry?: unknown; started_at?: unknown; inputs?: unknown };
  try {
    manifest = JSON.parse(await readFile(path.join(dir, "inputs.json"), "utf8")) as typeof manifest;
  } catch {
    throw new AppError("EXECUTION.MCP_PROXY.UNAVAILABLE", `the switchyard CLI is not built in ${dir}: ${REBUILD}`);
  }
  if (typeof manifest.entry !== "string" || typeof manifest.started_at !== "number" || !Array.isArray(manifest.inputs))
    throw new AppError("EXECUTION.MCP_PROXY.UNAVAILABLE", `${dir}inputs.json is not a CLI build manifest: ${REBUILD}`);
  if (!(await stat(path.join(dir, LAUNCHER)).catch(() => undefined))?.isFile())
    throw new AppError("EXECUTION.MCP_PROXY.UNAVAILABLE", `the switchyard CLI in ${dir} has no ${LAUNCHER} (an older build): ${REBUILD}`);
  let stale = false;
  for (const input of manifest.inputs as unknown[]) {
    if (typeof input !== "string") continue;
    const info = await stat(path.resolve(dir, input)).catch(() => undefined);
    if (info && info.mtimeMs > manifest.started_at) stale = true;
  }
  return { dir, entry: manifest.entry, stale };
};

/** Stagings under way in this process, by target: steps that start together share one. */
const staging = new Map<string, Promise<void>>();

/** Copies the build into `target`: written aside under a name of its own, then renamed into place. */
const copyBuild = async (cli: BuiltCli, target: string) => {
  const aside = `${target}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await mkdir(aside, { recursive: true, mode: 0o755 });
  try {
    // Files only: a build under way keeps its output in a folder of its own there.
    for (const entry of await readdir(cli.dir, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith(".map") || entry.name === LAUNCHER) continue;
      await copyFile(path.join(cli.dir, entry.name), path.join(aside, entry.name));
      await chmod(path.join(aside, entry.name), 0o644);
    }
    await writeFile(path.join(aside, LAUNCHER), launcher(cli.entry), { mode: 0o644 });
    await rename(aside, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another process staged the same build first.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
};

/**
 * A copy of the built CLI in `parent` (a folder the step uid can enter), since bubblewrap
 * resolves a bind's source as the step uid, which may not enter the checkout (a clone
 * under /root or a 0700 temp folder). One copy per build, made once: steps of this process
 * that stage it together wait for one copy, and other processes' copies are written aside
 * and renamed into place, so no step ever sees half a copy.
 */
export const stageBuiltCli = async (cli: BuiltCli, parent: string): Promise<BuiltCli> => {
  const manifest = await stat(path.join(cli.dir, "inputs.json"));
  const target = path.join(parent, `.cli-${Math.floor(manifest.mtimeMs)}`);
  const staged = { ...cli, dir: `${target}/` };
  if (await stat(path.join(target, LAUNCHER)).catch(() => undefined)) return staged;
  let copy = staging.get(target);
  if (!copy) {
    copy = copyBuild(cli, target).finally(() => staging.delete(target));
    staging.set(target, copy);
  }
  await copy;
  return staged;
};

/** A step's connector tools, resolved before launch (buildStepCatalog), and what serves them. */
export type StepConnectors = {
  host: ConnectorHost;
  /** Asked again at every call, so a connector disabled or a lane removed stops calls in running steps. */
  gate: LaneGate;
  lane: string;
  catalog: readonly CatalogEntry[];
  /** The connectors' credentials, scrubbed from results, records and spans by the channel. */
  secrets: readonly string[];
  /** Tools (final names) the connectors' definitions list first under tool search. */
  initialTools?: readonly string[];
};

/** What the step's proxy serves: the workflow's `mcp_proxy` block, and the connectors resolved for it. */
export type StepTools = {
  toolSearch: boolean;
  /** With tool search: the tools listed from the start (default: the built-ins). */
  initialTools: readonly string[];
  connectors?: StepConnectors;
};

/** The step's tools as its `mcp_proxy` block asks (none given: the six built-ins, all listed). */
export const stepToolsOf = (mcpProxy: McpProxyConfig | undefined, connectors?: StepConnectors): StepTools => ({
  toolSearch: mcpProxy?.toolSearch ?? false,
  // The workflow's list wins; else the built-ins and what each connector lists first.
  initialTools:
    mcpProxy?.initialTools.length || !connectors?.initialTools?.length ? (mcpProxy?.initialTools ?? []) : [...BUILTIN_NAMES, ...connectors.initialTools],
  ...(connectors ? { connectors } : {}),
});

/** Every name the step's proxy may offer: the built-ins, the connectors' tools, and with tool search its two tools. */
export const stepToolNames = (tools: StepTools | undefined): string[] => [
  ...BUILTIN_NAMES,
  ...(tools?.connectors?.catalog.map((e) => e.name) ?? []),
  ...(tools?.toolSearch ? [TOOL_SEARCH, CALL_TOOL] : []),
];

export type StepProxyOptions = {
  /** The run's host, its owner tag `<worker>/<run>`. */
  sandbox: SandboxHost;
  /** The StepRun id of the attempt. */
  attemptId: string;
  uid: number | undefined;
  /** The run's folder (the session's folder is made in it) and the run's workspace. */
  runDir: string;
  workspace: string;
  cli: BuiltCli;
  /** Scrubbed from records and spans by the channel. */
  secrets: readonly string[];
  traceparent?: string;
  /** Where the proxy's records and spans go (`tool.recorded`, `span.ended`); a call is answered once its record is stored. */
  events: ChannelEventEmitter;
  readyTimeoutMs?: number;
  /** Unset: the six built-ins, no tool search, no connectors. */
  tools?: StepTools;
};

/**
 * A step's sandbox session with its proxy ready to start: the channel listening (its socket
 * reachable by the step uid only), the proxy's config written (0600, the step uid's, no
 * secret), and the argv and binds that start `switchyard mcp-serve` inside the session,
 * whoever starts it (the worker itself, or the agent CLI as its MCP server).
 */
export type StepProxy = {
  session: SandboxSession;
  channel: StepChannel;
  /** Host path of a file or folder the step uid owns in the session's folder. */
  owner: number;
  /** `node <cli>/switchyard.mjs mcp-serve --config <config>`, as the step sees them. */
  argv: string[];
  /** The channel's socket, the CLI and the config, to bind into every process that may start the proxy. */
  binds: SandboxBind[];
  /** Closes the channel, then the session (reap, give back, remove). */
  close: () => Promise<void>;
};

const noConnectors = {
  listTools: () => Promise.resolve([]),
  callTool: (): Promise<CallToolResult> => Promise.reject(new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", "this step has no connectors")),
  close: () => Promise.resolve(),
};

export const openStepProxy = async (options: StepProxyOptions): Promise<StepProxy> => {
  const session = await openSandboxSession({
    ownerId: runOwnerId(options.sandbox.ownerId, options.attemptId),
    level: { host: options.sandbox },
    uid: options.uid,
    scratchDir: options.runDir,
    prefix: "agent-",
    workspace: options.workspace,
  });
  let channel: StepChannel | undefined;
  const close = async () => {
    await channel?.close().catch(() => undefined);
    await session.close();
  };
  try {
    const owner = session.uid ?? process.getuid?.() ?? 0;
    const connectors = options.tools?.connectors;
    channel = await startStepChannel({
      host: connectors?.host ?? noConnectors,
      gate: connectors?.gate ?? { allows: () => false },
      lane: connectors?.lane ?? "",
      catalog: connectors?.catalog ?? [],
      secrets: [...options.secrets, ...(connectors?.secrets ?? [])],
      events: options.events,
      dir: session.folders.root,
      readyTimeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    });
    // The step uid must reach and connect to the socket; nobody else can enter the session's folder.
    await chmod(path.dirname(channel.path), 0o711);
    await chown(channel.path, owner, owner);
    await chmod(channel.path, 0o600);
    const channelBind = { path: channel.path, mode: "rw" as const, target: CHANNEL_INSIDE };
    const cliBind = { path: options.cli.dir, mode: "ro" as const, target: CLI_INSIDE };

    const configFile = path.join(session.folders.root, "proxy.json");
    const configBind = { path: configFile, mode: "ro" as const, target: CONFIG_INSIDE };
    const config: ProxyConfig = {
      root_dir: session.paths.workspace,
      builtins: [...BUILTIN_NAMES],
      catalog: catalogForConfig(connectors?.catalog ?? []),
      tool_search: options.tools?.toolSearch ?? false,
      ...(options.tools?.toolSearch && options.tools.initialTools.length > 0 ? { initial_tools: [...options.tools.initialTools] } : {}),
      channel: { path: session.pathInside(channelBind), token: channel.token },
      ...(options.traceparent ? { trace: { traceparent: options.traceparent } } : {}),
      log_calls: false,
      server_name: "switchyard",
      sandbox: "inherit",
    };
    await writeFile(configFile, JSON.stringify(config), { mode: 0o600, flag: "wx" });
    await chown(configFile, owner, owner);
    return {
      session,
      channel,
      owner,
      argv: [process.execPath, `${session.pathInside(cliBind)}/${LAUNCHER}`, "mcp-serve", "--config", session.pathInside(configBind)],
      binds: [channelBind, cliBind, configBind],
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
};

export type AgentStepSessionOptions = StepProxyOptions & { signal: AbortSignal };

export type AgentStepSession = {
  client: Client;
  session: SandboxSession;
  /** The end of the proxy's stderr, for an error message. */
  stderrTail: () => string;
  close: () => Promise<void>;
};

/** The step's proxy started by the worker, with an SDK client over its stdio (openai_compatible). */
export const openAgentStepSession = async (options: AgentStepSessionOptions): Promise<AgentStepSession> => {
  const step = await openStepProxy(options);
  let proxy: SandboxProcess | undefined;
  let client: Client | undefined;
  let stderr = "";
  const close = async () => {
    await client?.close().catch(() => undefined);
    proxy?.stdin.end();
    await proxy?.stop().catch(() => undefined);
    await step.close();
  };
  try {
    proxy = await step.session.start({ argv: step.argv, env: {}, binds: step.binds }, { signal: options.signal });
    proxy.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    client = new Client({ name: "switchyard-worker", version: "1" });
    const exited = proxy.exited.then((exit) => {
      throw new AppError("EXECUTION.MCP_PROXY.UNAVAILABLE", `the step's MCP proxy exited (code ${exit.exitCode ?? "none"}) before it was ready: ${stderr.trim().slice(-500)}`);
    });
    exited.catch(() => undefined);
    // No `ready` on the channel within the deadline fails the step (EXECUTION.MCP_PROXY.NOT_READY).
    await Promise.race([step.channel.ready, exited]);
    // A generic transport over a readable and a writable: the proxy's stdout and stdin.
    await Promise.race([client.connect(new StdioServerTransport(proxy.stdout, proxy.stdin)), exited]);
    return { client, session: step.session, stderrTail: () => stderr, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
};

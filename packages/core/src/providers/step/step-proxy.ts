/**
 * What an agent step runs on: a sandbox of its own (the run's uid and workspace, a
 * private HOME and /tmp, the owner tag `<worker>/<run>/<attempt>` that the run's reap
 * covers), the step channel with its socket bound into that sandbox only, and the proxy
 * `switchyard mcp-serve` from the built CLI under node, which the agent CLI starts as its
 * MCP server (claude) or the worker starts itself with an SDK client over its stdio
 * (openai_compatible). The proxy's config holds no secret. `close()` undoes it all in
 * order: client, proxy stdin, channel, sandbox (reap, then remove). The worker and
 * `switchyard run` both run agent steps on it.
 */
import { chmod, chown, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { catalogForConfig } from "../../connectors/build-step-catalog";
import { AppError } from "../../errors";
import type { ChannelEventEmitter } from "../../events";
import { createReplayBook, type ReplayPlan } from "../../replay/replay-book";
import {
  startStepChannel,
  type ProxyConfig,
  type StepChannel,
  type StepChannelServerOptions,
} from "../../mcp";
import {
  openSandbox,
  runOwnerId,
  type SandboxBind,
  type SandboxHost,
  type SandboxProcess,
  type Sandbox,
} from "../../sandbox";
import { BUILTIN_NAMES } from "../../tools";
import { LAUNCHER, type BuiltCli } from "./built-cli";
import { noConnectors, type StepTools } from "./step-tools";

const CLI_INSIDE = "/opt/switchyard/cli";
const CONFIG_INSIDE = "/etc/switchyard/proxy.json";
const CHANNEL_INSIDE = "/run/switchyard/channel.sock";
const READY_TIMEOUT_MS = 10_000;
const STDERR_TAIL = 4096;

export type StepProxyOptions = {
  /** The run's host, its owner tag `<worker>/<run>`. */
  sandbox: SandboxHost;
  /** The StepRun id of the attempt. */
  attemptId: string;
  uid: number | undefined;
  /** The run's folder (the sandbox's folder is made in it) and the run's workspace. */
  runDir: string;
  workspace: string;
  cli: BuiltCli;
  /** Scrubbed from records and spans by the channel. */
  secrets: readonly string[];
  traceparent?: string;
  /** Where the proxy's records and spans go (`tool.recorded`, `span.ended`); a call is answered once its record is stored. */
  events: ChannelEventEmitter;
  /**
   * How long the proxy may take to say ready.
   * @default READY_TIMEOUT_MS (10 s)
   */
  readyTimeoutMs?: number;
  /** Unset: the six built-ins, no tool search, no connectors. */
  tools?: StepTools;
  /**
   * A replay: the proxy runs nothing and the channel answers every call from these
   * recordings (connector tools come from the plan's catalog, through `tools`).
   */
  replay?: ReplayPlan;
  /**
   * Calls the worker allows first (held for approval, counted against a budget): every
   * connector call, and the built-ins named in `builtins` (the proxy asks before each).
   */
  gate?: {
    beforeCall: NonNullable<StepChannelServerOptions["beforeCall"]>;
    builtins: readonly string[];
  };
};

/**
 * A step's sandbox with its proxy ready to start: the channel listening (its socket
 * reachable by the step uid only), the proxy's config written (0600, the step uid's, no
 * secret), and the argv and binds that start `switchyard mcp-serve` inside the sandbox,
 * whoever starts it (the worker itself, or the agent CLI as its MCP server).
 */
export type StepProxy = {
  sandbox: Sandbox;
  channel: StepChannel;
  /** Host path of a file or folder the step uid owns in the sandbox's folder. */
  owner: number;
  /** `node <cli>/switchyard.mjs mcp-serve --config <config>`, as the step sees them. */
  argv: string[];
  /** The channel's socket, the CLI and the config, to bind into every process that may start the proxy. */
  binds: SandboxBind[];
  /** Closes the channel, then the sandbox (reap, give back, remove). */
  close: () => Promise<void>;
};

/** Starts a step's MCP proxy in its own sandbox, connected to the worker by the step channel. */
export const openStepProxy = async (options: StepProxyOptions): Promise<StepProxy> => {
  const sandbox = await openSandbox({
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
    await sandbox.close();
  };
  try {
    const owner = sandbox.uid ?? process.getuid?.() ?? 0;
    const connectors = options.tools?.connectors;
    channel = await startStepChannel({
      host: connectors?.host ?? noConnectors,
      gate: connectors?.gate ?? { allows: () => false },
      lane: connectors?.lane ?? "",
      catalog: connectors?.catalog ?? [],
      secrets: [...options.secrets, ...(connectors?.secrets ?? [])],
      events: options.events,
      dir: sandbox.folders.root,
      readyTimeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
      ...(options.gate ? { beforeCall: options.gate.beforeCall } : {}),
      ...(options.replay
        ? {
            replay: {
              book: createReplayBook(options.replay.recordings),
              unmatched: options.replay.unmatched,
            },
          }
        : {}),
    });
    // The step uid must reach and connect to the socket; nobody else can enter the sandbox's folder.
    await chmod(path.dirname(channel.path), 0o711);
    await chown(channel.path, owner, owner);
    await chmod(channel.path, 0o600);
    const channelBind = { path: channel.path, mode: "rw" as const, target: CHANNEL_INSIDE };
    const cliBind = { path: options.cli.dir, mode: "ro" as const, target: CLI_INSIDE };

    const configFile = path.join(sandbox.folders.root, "proxy.json");
    const configBind = { path: configFile, mode: "ro" as const, target: CONFIG_INSIDE };
    const config: ProxyConfig = {
      root_dir: sandbox.paths.workspace,
      builtins: [...BUILTIN_NAMES],
      catalog: catalogForConfig(connectors?.catalog ?? []),
      tool_search: options.tools?.toolSearch ?? false,
      ...(options.tools?.toolSearch && options.tools.initialTools.length > 0
        ? { initial_tools: [...options.tools.initialTools] }
        : {}),
      channel: { path: sandbox.pathInside(channelBind), token: channel.token },
      ...(options.traceparent ? { trace: { traceparent: options.traceparent } } : {}),
      log_calls: false,
      server_name: "switchyard",
      sandbox: "inherit",
      ...(options.replay ? { replay: { unmatched: options.replay.unmatched } } : {}),
      ...(options.gate?.builtins.length ? { gate: [...options.gate.builtins] } : {}),
    };
    await writeFile(configFile, JSON.stringify(config), { mode: 0o600, flag: "wx" });
    await chown(configFile, owner, owner);
    return {
      sandbox,
      channel,
      owner,
      argv: [
        process.execPath,
        `${sandbox.pathInside(cliBind)}/${LAUNCHER}`,
        "mcp-serve",
        "--config",
        sandbox.pathInside(configBind),
      ],
      binds: [channelBind, cliBind, configBind],
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
};

export type StepProxyClientOptions = StepProxyOptions & { signal: AbortSignal };

export type StepProxyClient = {
  client: Client;
  sandbox: Sandbox;
  /** The end of the proxy's stderr, for an error message. */
  stderrTail: () => string;
  close: () => Promise<void>;
};

/** The step's proxy started by the worker, with an SDK client over its stdio (openai_compatible). */
export const openStepProxyClient = async (
  options: StepProxyClientOptions,
): Promise<StepProxyClient> => {
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
    proxy = await step.sandbox.start(
      { argv: step.argv, env: {}, binds: step.binds },
      { signal: options.signal },
    );
    proxy.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    client = new Client({ name: "switchyard-worker", version: "1" });
    const exited = proxy.exited.then((exit) => {
      throw new AppError(
        "EXECUTION.MCP_PROXY.UNAVAILABLE",
        `the step's MCP proxy exited (code ${exit.exitCode ?? "none"}) before it was ready: ${stderr.trim().slice(-500)}`,
      );
    });
    exited.catch(() => undefined);
    // No `ready` on the channel within the deadline fails the step (EXECUTION.MCP_PROXY.NOT_READY).
    await Promise.race([step.channel.ready, exited]);
    // A generic transport over a readable and a writable: the proxy's stdout and stdin.
    await Promise.race([
      client.connect(new StdioServerTransport(proxy.stdout, proxy.stdin)),
      exited,
    ]);
    return { client, sandbox: step.sandbox, stderrTail: () => stderr, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
};

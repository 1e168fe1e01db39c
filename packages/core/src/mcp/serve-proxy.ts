/**
 * Runs one proxy from its config: connects the step channel (if any) before anything else
 * so a startup failure can be reported as `fatal`, builds the providers and the router,
 * serves MCP over the given stdio streams, and ends cleanly when stdin closes, the channel
 * closes or the caller aborts. Nothing slow (connectors, telemetry SDKs) is on this path.
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { AppError } from "../errors";
import {
  BUILTIN_NAMES,
  BuiltinTools,
  CALL_TOOL,
  CatalogTools,
  Confinement,
  createSandboxedShell,
  sandboxShellRunner,
  TOOL_SEARCH,
  ToolFailure,
  ToolRouter,
  ToolSearch,
  type SandboxedShellOptions,
  type ShellRunner,
  type JsonObject,
  type ToolProvider,
} from "../tools";
import type { RecordSink } from "./call-record";
import { CallReporter, type CallLogger } from "./call-reporter";
import { bashSandboxOf, type ProxyConfig } from "./proxy-config";
import { ProxyServer } from "./proxy-server";
import { nullSink, RecordFileSink } from "./record-file-sink";
import { Redactor } from "./redact";
import { ResultCap } from "./result-cap";
import { StepChannelClient } from "./step-channel-client";
import { parseTraceparent } from "./trace-context";

type ServeProxyDeps = {
  config: ProxyConfig;
  stdin: Readable;
  stdout: Writable;
  /** Environment for Bash commands, already reduced to an allow-list by the caller. */
  shellEnv: Record<string, string>;
  /** Replaces the runner the config's `sandbox` picks (tests, embedders). */
  shell?: ShellRunner;
  /** For `sandbox: "own"`: where its private folders go, the step uid range, level report. */
  bashSandbox?: Pick<SandboxedShellOptions, "scratchDir" | "stepUidBase" | "ownerId" | "onLevel">;
  log?: CallLogger;
  /** Aborting ends the proxy (SIGTERM, SIGINT). */
  signal?: AbortSignal;
  /**
   * The version the proxy gives in its server info.
   * @default "0.1.0"
   */
  version?: string;
  pageSize?: number;
};

const STDIN_CLOSE_GRACE_MS = 1500;

type ProxyExit = { reason: "stdin_closed" | "channel_closed" | "signal"; detail?: string };

type Shell = { run: ShellRunner; close: () => Promise<void> };

/** Bash's runner: a sandbox of its own (found lazily, on the first command) or a plain child. */
const shellFor = (config: ProxyConfig, deps: ServeProxyDeps): Shell => {
  if (deps.shell) return { run: deps.shell, close: async () => undefined };
  const sandbox = bashSandboxOf(config);
  switch (sandbox) {
    case "inherit":
      return { run: sandboxShellRunner, close: async () => undefined };
    case "own":
      return createSandboxedShell({
        ...deps.bashSandbox,
        root: config.root_dir,
        network: config.bash_network ?? false,
      });
    default: {
      const never: never = sandbox;
      throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown sandbox ${String(never)}`);
    }
  }
};

const buildProviders = async (
  config: ProxyConfig,
  shell: Shell,
  shellEnv: Record<string, string>,
  channel: StepChannelClient | undefined,
): Promise<ToolProvider[]> => {
  const providers: ToolProvider[] = [];
  if (config.builtins !== false) {
    providers.push(
      new BuiltinTools({
        confinement: await Confinement.create(config.root_dir),
        shell: shell.run,
        shellEnv,
        enabled: config.builtins === true ? BUILTIN_NAMES : config.builtins,
      }),
    );
  }
  if (config.catalog.length > 0) {
    const entries = config.catalog.map((e) => ({
      name: e.name,
      description: e.description,
      connector: e.connector,
      tool: e.tool,
      ...(e.input_schema ? { inputSchema: e.input_schema } : {}),
      ...(e.output_schema ? { outputSchema: e.output_schema } : {}),
    }));
    providers.push(
      new CatalogTools(entries, (name, args, ctx) =>
        channel
          ? channel.call(name, args, ctx.signal, ctx.trace)
          : Promise.reject(
              new ToolFailure(
                "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
                "connector tools need a step channel; this proxy runs without one",
              ),
            ),
      ),
    );
  }
  return providers;
};

/** Runs one proxy from its config until stdin closes, the channel closes or `signal` aborts. */
export const serveProxy = async (deps: ServeProxyDeps): Promise<ProxyExit> => {
  const { config } = deps;
  const channel = config.channel
    ? await StepChannelClient.connect({ path: config.channel.path, token: config.channel.token })
    : undefined;
  let sink: RecordSink;
  let proxy: ProxyServer;
  const shell = shellFor(config, deps);
  try {
    const redactor = new Redactor().addSecrets(channel?.secrets ?? []);
    const providers = await buildProviders(config, shell, deps.shellEnv, channel);
    const router = ToolRouter.build(providers, config.tool_search ? [TOOL_SEARCH, CALL_TOOL] : []);
    const builtinNames = router
      .list()
      .filter((t) => t.source === "builtin")
      .map((t) => t.name);
    const search = new ToolSearch(router, config.tool_search, config.initial_tools, builtinNames);
    if (router.list().length === 0 && !config.tool_search) {
      throw new AppError(
        "USER.MCP_PROXY.EMPTY_PROXY",
        "the proxy has no tools: enable built-ins or give a catalog",
      );
    }
    sink = channel ?? (config.record_file ? new RecordFileSink(config.record_file) : nullSink);
    const trace = parseTraceparent(config.trace?.traceparent);
    proxy = new ProxyServer({
      router,
      search,
      redactor,
      reporter: new CallReporter({ sink, redactor, trace, ...(deps.log ? { log: deps.log } : {}) }),
      name: config.server_name,
      version: deps.version ?? "0.1.0",
      ...(deps.pageSize ? { pageSize: deps.pageSize } : {}),
      resultCap: new ResultCap(config.root_dir, config.result_cap_bytes),
      ...(config.record_wait_ms === undefined ? {} : { recordWaitMs: config.record_wait_ms }),
      ...(config.gate?.length && channel
        ? {
            gate: {
              tools: new Set(config.gate),
              ask: (tool: string, args: JsonObject, signal: AbortSignal) =>
                channel.gate(tool, args, signal),
            },
          }
        : {}),
      ...(config.replay && channel
        ? {
            replay: {
              unmatched: config.replay.unmatched,
              ask: (tool, args, signal) => channel.ask(tool, args, signal),
            },
          }
        : {}),
    });
    await proxy.connect(new StdioServerTransport(deps.stdin, deps.stdout));
    channel?.ready(router.list().map((t) => t.name));
  } catch (error) {
    if (channel) {
      const code = error instanceof AppError ? error.code : "SYSTEM.MCP_PROXY.STARTUP";
      channel.fatal(code, error instanceof Error ? error.message : String(error));
      await channel.close();
    }
    await shell.close();
    throw error;
  }

  const exit = await new Promise<ProxyExit>((resolve) => {
    deps.stdin.once("end", () => resolve({ reason: "stdin_closed" }));
    deps.stdin.once("close", () => resolve({ reason: "stdin_closed" }));
    channel?.onClose((detail) => resolve({ reason: "channel_closed", detail }));
    if (deps.signal?.aborted) resolve({ reason: "signal" });
    deps.signal?.addEventListener("abort", () => resolve({ reason: "signal" }), { once: true });
  });
  // A client that closed stdin after its last request still gets the replies that are quick.
  await proxy.close(exit.reason === "stdin_closed" ? STDIN_CLOSE_GRACE_MS : 0);
  await shell.close();
  await sink.close();
  return exit;
};

/**
 * The local connectors of `switchyard run` at work: each server the workflow's steps name is
 * started by this process, once, in a sandbox of its own inside the run's (the run's level,
 * uid, workspace and network; a private HOME and temp folder), with only its declared
 * environment, and kept for the whole run. Steps reach it as they reach a team connector on
 * a server: through the step channel, the proxy in the step's sandbox asking this process,
 * so the agent never sees the server's environment. A server that exits once the steps may
 * run is not started again (a step may have changed its files in the workspace). Its tools are named `<name>_<tool>`;
 * `plugin_tools` exposes only the tools it lists. `close()` stops every server and reaps its
 * sandbox; the run's own sandbox reaps whatever is left (its owner tag covers theirs).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { stepConnectors, type ConnectorSpec } from "@switchyard/core/connectors";
import {
  buildStepCatalog,
  McpConnectorHost,
  processTransport,
} from "@switchyard/core/connectors/host";
import { AppError } from "@switchyard/core/errors";
import type { StepConnectors } from "@switchyard/core/providers";
import { openSandbox, runOwnerId, type Sandbox } from "@switchyard/core/sandbox";
import type { Scrubber } from "@switchyard/core/secrets";
import type { ConnectorCatalog, McpProxyConfig } from "@switchyard/core/workflow";
import type { LocalConnectors } from "./local-connectors-file";

const STDERR_TAIL = 2048;

/** Why a name is not a connector here: said with UNKNOWN_PLUGIN and UNKNOWN_CONNECTOR. */
const notDeclared = (declared: LocalConnectors | undefined, name: string) =>
  declared
    ? `"${name}" is not one of the servers in ${declared.file} (${[...declared.servers.keys()].join(", ") || "none"})`
    : `switchyard run found no connectors file: declare "${name}" in .switchyard/connectors.json next to the workflow, or name a file with --connectors`;

/** The connector names the steps' `mcp_proxy` blocks use (`connectors` and `plugin_tools`). */
export const connectorsNamed = (proxies: (McpProxyConfig | undefined)[]): string[] => [
  ...new Set(proxies.flatMap((p) => stepConnectors(p).slugs)),
];

/** Whether each name is declared: the check that needs no server (validateWorkflow's port). */
export const declaredCatalog = (declared: LocalConnectors | undefined): ConnectorCatalog => ({
  check: (ids) =>
    Promise.resolve(
      Object.fromEntries(
        ids.map((id) => [id, declared?.servers.has(id) ? ("ok" as const) : ("unknown" as const)]),
      ),
    ),
  unknown: (id) => notDeclared(declared, id),
});

type OpenLocalConnectorsOptions = {
  declared: LocalConnectors;
  /** The run's sandbox: each server's is opened inside it, at its level, uid and workspace. */
  run: Sandbox;
  /** Whether the servers share the machine's network, as the run's steps do. */
  network: boolean;
  /** The run's: learns the servers' environment values, and scrubs what their tools answer. */
  scrubber: Scrubber;
};

export type RunConnectors = {
  /** Starts each named server and lists its tools: the catalog validateWorkflow checks `expose` with. */
  list: (names: readonly string[]) => Promise<ConnectorCatalog>;
  stepConnectors: (request: { mcpProxy?: McpProxyConfig }) => Promise<StepConnectors | undefined>;
  close: () => Promise<void>;
};

export const openLocalConnectors = (options: OpenLocalConnectorsOptions): RunConnectors => {
  const { declared, run, scrubber } = options;
  for (const secret of declared.secrets) scrubber.add(secret);
  const sandboxes = new Set<Sandbox>();
  let started = 0;
  // Once the steps may run, a server that exits is not started again: its command and files
  // are in the workspace the steps write, so a new start could run what a step put there,
  // with the server's environment.
  let stepsMayRun = false;
  const stderr = new Map<string, string>();

  const openStdio = async (
    spec: Extract<ConnectorSpec, { kind: "stdio" }>,
    env: Record<string, string>,
  ): Promise<Transport> => {
    if (stepsMayRun)
      throw new AppError(
        "EXECUTION.CONNECTOR_UNAVAILABLE",
        `connector "${spec.id}" exited during the run: switchyard run starts a local connector once, before the first step, and not again (a step may have changed its files)`,
      );
    const sandbox = await openSandbox({
      ownerId: runOwnerId(run.host.ownerId, `connector-${++started}`),
      level: { host: run.host },
      scratchDir: run.folders.root,
      prefix: "connector-",
      workspace: run.folders.workspace,
      network: options.network,
      ...(run.uid === undefined ? {} : { uid: run.uid }),
    });
    sandboxes.add(sandbox);
    const shut = async () => {
      sandboxes.delete(sandbox);
      await sandbox.close();
    };
    try {
      const proc = await sandbox.start({ argv: [spec.command, ...(spec.args ?? [])], env });
      // What the last start of it said: its error, when it does not come up.
      stderr.set(spec.id, "");
      proc.stderr.on("data", (chunk: Buffer) =>
        stderr.set(spec.id, ((stderr.get(spec.id) ?? "") + chunk.toString()).slice(-STDERR_TAIL)),
      );
      return processTransport(proc, shut);
    } catch (error) {
      await shut().catch(() => undefined);
      throw error;
    }
  };

  const pool = new McpConnectorHost({
    connectors: [...declared.servers.values()].map((s) => ({
      id: s.name,
      kind: "stdio" as const,
      command: s.command,
      args: s.args,
      env: s.env,
    })),
    openStdio,
    // A server stays up for the run, however long a step lasts.
    idleMs: 24 * 3_600_000,
  });

  const unavailable = (name: string, error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    const tail = stderr.get(name)?.trim();
    return new AppError(
      "EXECUTION.CONNECTOR_UNAVAILABLE",
      scrubber.scrub(
        `connector "${name}" (${declared.file}) did not start or list its tools: ${why}${tail ? `; its stderr: ${tail.slice(-500)}` : ""}`,
      ),
    );
  };

  const host = {
    listTools: (name: string, signal?: AbortSignal) => pool.listTools(name, signal),
    callTool: async (
      name: string,
      tool: string,
      args: Record<string, unknown>,
      signal?: AbortSignal,
    ) => scrubber.scrubValue(await pool.callTool(name, tool, args, signal)),
    // Each step lets go of the host; the servers stay up until the run ends.
    close: () => Promise.resolve(),
  };

  return {
    list: async (names) => {
      const tools: Record<string, string[]> = {};
      for (const name of names) {
        if (!declared.servers.has(name)) continue;
        try {
          tools[name] = (await pool.listTools(name)).map((t) => t.name);
        } catch (error) {
          throw unavailable(name, error);
        }
      }
      stepsMayRun = true;
      return {
        ...declaredCatalog(declared),
        tools: (ids) => Promise.resolve(Object.fromEntries(ids.map((id) => [id, tools[id]]))),
      };
    },
    stepConnectors: async (request) => {
      const { slugs, expose } = stepConnectors(request.mcpProxy);
      if (slugs.length === 0) return undefined;
      for (const slug of slugs)
        if (!declared.servers.has(slug))
          throw new AppError("USER.MCP_PROXY.UNKNOWN_PLUGIN", notDeclared(declared, slug));
      const built = await buildStepCatalog({
        host,
        gate: { allows: () => true },
        lane: "",
        connectors: slugs,
        expose,
      });
      const failed = built.unavailable[0];
      if (failed) throw unavailable(failed.connector, failed.reason);
      return {
        host,
        gate: { allows: () => true },
        lane: "",
        catalog: built.catalog,
        secrets: declared.secrets,
      };
    },
    // The sandboxes close with the pool, not after it: a server still starting (a run stopped
    // meanwhile) is ended now rather than waited for.
    close: async () => {
      await Promise.all([
        pool.close(),
        ...[...sandboxes].map((sandbox) => sandbox.close().catch(() => undefined)),
      ]);
    },
  };
};

/** The run's connectors when it has a file of them; a run without one gets none. */
export const withoutConnectors = (): RunConnectors => ({
  list: () => Promise.resolve(declaredCatalog(undefined)),
  stepConnectors: (request) => {
    const [first] = stepConnectors(request.mcpProxy).slugs;
    return first === undefined
      ? Promise.resolve(undefined)
      : Promise.reject(
          new AppError("USER.MCP_PROXY.UNKNOWN_PLUGIN", notDeclared(undefined, first)),
        );
  },
  close: () => Promise.resolve(),
});

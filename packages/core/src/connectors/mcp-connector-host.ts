/**
 * A ConnectorHost over real MCP clients (stdio and streamable HTTP). It owns every
 * transport and credential: a stdio connector gets its credential in its environment at
 * spawn (started by `openStdio`, the worker's own sandbox, when given), an HTTP connector
 * gets a bearer resolved per request (so a refreshed token is used at once). Connectors
 * are pooled: one live client per connector id (the worker's ids name the team, the
 * connector and whose credential), closed after `idleMs` unused and, at `maxLive`, the
 * least recently used one makes room. A connector that fails to connect, times out or
 * drops is cooled down, for longer at each failure in a row (backoff), and fails fast
 * meanwhile, without affecting the others. `tools/list` is cached per live client until
 * the server says its list changed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import { DESCRIPTION_CAP } from "../tools";
import type { ConnectorHost, ConnectorSpec, CredentialSource, UpstreamTool } from "./connector-host";

type StdioSpec = Extract<ConnectorSpec, { kind: "stdio" }>;

type McpConnectorHostOptions = {
  connectors?: readonly ConnectorSpec[];
  credentials?: CredentialSource;
  /** Starts a stdio connector (e.g. in a sandbox of its own) with its environment; the SDK's plain spawn when unset. */
  openStdio?: (spec: StdioSpec, env: Record<string, string>) => Promise<Transport>;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** The first cooldown after a failure; doubled at each further failure in a row, up to maxCooldownMs. */
  cooldownMs?: number;
  maxCooldownMs?: number;
  /** A live connector unused this long is closed (default 5 min). */
  idleMs?: number;
  /** Live connectors at most (default 32); the least recently used one is closed to make room. */
  maxLive?: number;
  now?: () => number;
};

type Live = { client: Client; transport: Transport; version: string | undefined; tools?: UpstreamTool[] };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

export class McpConnectorHost implements ConnectorHost {
  private readonly specs: Map<string, ConnectorSpec>;
  private readonly live = new Map<string, Promise<Live>>();
  private readonly lastUsed = new Map<string, number>();
  private readonly coolingUntil = new Map<string, { until: number; reason: string; failures: number }>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: McpConnectorHostOptions = {}) {
    this.specs = new Map((options.connectors ?? []).map((c) => [c.id, c]));
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(this.idleMs, 30_000));
    this.sweeper.unref();
  }

  private get idleMs() {
    return this.options.idleMs ?? 300_000;
  }

  /** Adds or replaces a connector; a live client of an older version is closed (and a cooldown of it forgotten). */
  define(spec: ConnectorSpec): void {
    const previous = this.specs.get(spec.id);
    this.specs.set(spec.id, spec);
    if (previous && previous.version !== spec.version) {
      this.coolingUntil.delete(spec.id);
      this.drop(spec.id);
    }
  }

  /** How many connectors have a live client now. */
  get liveCount(): number {
    return this.live.size;
  }

  private drop(id: string): void {
    const live = this.live.get(id);
    this.live.delete(id);
    this.lastUsed.delete(id);
    void live?.then((l) => l.client.close()).catch(() => undefined);
  }

  /** Closes live connectors unused for idleMs. */
  closeIdle(): void {
    const horizon = this.now() - this.idleMs;
    for (const [id, at] of this.lastUsed) if (at <= horizon) this.drop(id);
  }

  private coolDown(id: string, reason: string): void {
    const failures = (this.coolingUntil.get(id)?.failures ?? 0) + 1;
    const base = this.options.cooldownMs ?? 1_000;
    const ms = Math.min(base * 2 ** (failures - 1), Math.max(base, this.options.maxCooldownMs ?? 60_000));
    this.coolingUntil.set(id, { until: this.now() + ms, reason, failures });
    this.drop(id);
  }

  /** Room for one more live client: the least recently used one goes. */
  private makeRoom(): void {
    const max = this.options.maxLive ?? 32;
    while (this.live.size >= max) {
      const oldest = [...this.lastUsed].sort((a, b) => a[1] - b[1])[0];
      if (!oldest) break;
      this.drop(oldest[0]);
    }
  }

  private async transportFor(spec: ConnectorSpec): Promise<Transport> {
    const credentials = this.options.credentials;
    switch (spec.kind) {
      case "stdio": {
        const env = { ...(spec.env ?? {}) };
        if (spec.credentialEnv && credentials) {
          const secret = await credentials.resolve(spec.id);
          if (secret !== undefined) env[spec.credentialEnv] = secret;
        }
        if (this.options.openStdio) return this.options.openStdio(spec, env);
        return new StdioClientTransport({
          command: spec.command,
          args: spec.args ?? [],
          env,
          stderr: "ignore",
          ...(spec.cwd ? { cwd: spec.cwd } : {}),
        });
      }
      case "http": {
        const url = new URL(spec.url);
        if (
          url.protocol !== "https:" &&
          !(url.protocol === "http:" && LOOPBACK.has(url.hostname))
        ) {
          throw new AppError(
            "USER.INPUT.VALIDATION_FAILED",
            `connector "${spec.id}": the URL must be https, or http on loopback`,
          );
        }
        return new StreamableHTTPClientTransport(url, {
          fetch: async (url, init) => {
            const headers = new Headers(init?.headers);
            for (const [k, v] of Object.entries(spec.headers ?? {})) headers.set(k, v);
            const secret = credentials ? await credentials.resolve(spec.id) : undefined;
            if (secret !== undefined) headers.set("Authorization", `Bearer ${secret}`);
            return fetch(url, { ...init, headers });
          },
        });
      }
    }
  }

  private connect(id: string): Promise<Live> {
    const cooling = this.coolingUntil.get(id);
    if (cooling && cooling.until > this.now()) {
      const seconds = Math.ceil((cooling.until - this.now()) / 1000);
      return Promise.reject(
        new AppError(
          "EXECUTION.CONNECTOR_UNAVAILABLE",
          `connector "${id}" failed (${cooling.reason}); retrying in ${seconds} s`,
          { retryable: true },
        ),
      );
    }
    const existing = this.live.get(id);
    if (existing) {
      this.lastUsed.set(id, this.now());
      return existing;
    }
    const spec = this.specs.get(id);
    if (!spec)
      return Promise.reject(
        new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", `unknown connector "${id}"`),
      );
    this.makeRoom();
    const attempt = (async (): Promise<Live> => {
      const transport = await this.transportFor(spec);
      const client = new Client({ name: "switchyard", version: "0.1.0" });
      const live: Live = { client, transport, version: spec.version };
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        delete live.tools;
      });
      try {
        await withTimeout(
          client.connect(transport),
          this.options.connectTimeoutMs ?? 30_000,
          `connecting to "${id}"`,
        );
      } catch (error) {
        await client.close().catch(() => undefined);
        throw error;
      }
      client.onclose = () => {
        if (this.live.get(id) === attempt) this.coolDown(id, "the connection closed");
      };
      return live;
    })();
    this.live.set(id, attempt);
    this.lastUsed.set(id, this.now());
    attempt.then(
      () => this.coolingUntil.delete(id),
      (error: Error) => {
        if (this.live.get(id) === attempt) this.coolDown(id, error.message);
      },
    );
    return attempt;
  }

  private async guarded<T>(id: string, run: (client: Client, live: Live) => Promise<T>): Promise<T> {
    let live: Live;
    try {
      live = await this.connect(id);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(
        "EXECUTION.CONNECTOR_UNAVAILABLE",
        `connector "${id}" is unavailable: ${(error as Error).message}`,
        { retryable: true, cause: error },
      );
    }
    try {
      return await run(live.client, live);
    } catch (error) {
      const timedOut =
        error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number);
      const dropped =
        error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
      if (timedOut || dropped) {
        this.coolDown(id, timedOut ? "a call timed out" : "the connection closed");
        throw new AppError(
          "EXECUTION.CONNECTOR_UNAVAILABLE",
          `connector "${id}": ${error.message}`,
          { retryable: true, cause: error },
        );
      }
      throw error;
    }
  }

  async listTools(connectorId: string, signal?: AbortSignal): Promise<UpstreamTool[]> {
    return this.guarded(connectorId, async (client, live) => {
      if (live.tools) return live.tools;
      const tools: UpstreamTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, {
          timeout: this.options.callTimeoutMs ?? 60_000,
          ...(signal ? { signal } : {}),
        });
        for (const t of page.tools) {
          tools.push({
            name: t.name,
            description: (t.description ?? "").slice(0, DESCRIPTION_CAP),
            inputSchema: t.inputSchema ?? { type: "object" },
            ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      live.tools = tools;
      return tools;
    });
  }

  async callTool(
    connectorId: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    return this.guarded(connectorId, async (client) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.options.callTimeoutMs ?? 60_000,
        ...(signal ? { signal } : {}),
      });
      return result as CallToolResult;
    });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.live.values()];
    this.live.clear();
    this.lastUsed.clear();
    await Promise.allSettled(all.map(async (p) => (await p).client.close()));
  }
}

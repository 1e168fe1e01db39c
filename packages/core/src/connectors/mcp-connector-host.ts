/**
 * A ConnectorHost over real MCP clients (stdio and streamable HTTP). It owns every
 * transport and credential: a stdio connector gets its credential in its environment at
 * spawn, an HTTP connector gets a bearer resolved per request (so a refreshed token is used
 * at once). A connector that fails to connect, times out or drops is cooled down for a
 * while and fails fast meanwhile, without affecting the others.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import { DESCRIPTION_CAP } from "../tools";
import type { ConnectorHost, CredentialSource, UpstreamTool } from "./connector-host";

export type ConnectorSpec =
  | {
      id: string;
      kind: "stdio";
      command: string;
      args?: string[];
      /** Non-secret environment for the server (the SDK adds PATH, HOME and a few more). */
      env?: Record<string, string>;
      cwd?: string;
      /** The environment variable the credential goes into. */
      credentialEnv?: string;
    }
  | { id: string; kind: "http"; url: string; headers?: Record<string, string> };

type McpConnectorHostOptions = {
  connectors: readonly ConnectorSpec[];
  credentials?: CredentialSource;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  cooldownMs?: number;
  now?: () => number;
};

type Live = { client: Client; transport: Transport };

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
  private readonly coolingUntil = new Map<string, { until: number; reason: string }>();
  private readonly now: () => number;

  constructor(private readonly options: McpConnectorHostOptions) {
    this.specs = new Map(options.connectors.map((c) => [c.id, c]));
    this.now = options.now ?? Date.now;
  }

  private get cooldownMs() {
    return this.options.cooldownMs ?? 60_000;
  }

  private coolDown(id: string, reason: string): void {
    this.coolingUntil.set(id, { until: this.now() + this.cooldownMs, reason });
    const live = this.live.get(id);
    this.live.delete(id);
    void live?.then((l) => l.client.close()).catch(() => undefined);
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
    if (existing) return existing;
    const spec = this.specs.get(id);
    if (!spec)
      return Promise.reject(
        new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", `unknown connector "${id}"`),
      );
    const attempt = (async (): Promise<Live> => {
      const transport = await this.transportFor(spec);
      const client = new Client({ name: "switchyard", version: "0.1.0" });
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
      return { client, transport };
    })();
    this.live.set(id, attempt);
    attempt.catch((error: Error) => {
      if (this.live.get(id) === attempt) this.coolDown(id, error.message);
    });
    return attempt;
  }

  private async guarded<T>(id: string, run: (client: Client) => Promise<T>): Promise<T> {
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
      return await run(live.client);
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
    return this.guarded(connectorId, async (client) => {
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
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.allSettled(all.map(async (p) => (await p).client.close()));
  }
}

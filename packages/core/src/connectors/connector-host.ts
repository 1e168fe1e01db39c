/**
 * The ports behind the step channel: a ConnectorHost runs connector tools (owning every
 * transport and credential), a LaneGate says which lanes may reach which connector, and a
 * CredentialSource hands the host a credential at the last moment. The worker implements
 * the gate and credentials over its database; tests use small in-memory ones.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type UpstreamTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** The server may (optional) or must (required) run the tool's calls as MCP tasks. */
  taskSupport?: "optional" | "required";
};

export interface ConnectorHost {
  /** Every tool the connector offers (all pages). */
  listTools(connectorId: string, signal?: AbortSignal): Promise<UpstreamTool[]>;
  callTool(
    connectorId: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    /** The span of the proxy's tools/call this call serves, to continue its trace. */
    trace?: { traceId: string; spanId: string },
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface LaneGate {
  allows(connectorId: string, lane: string): boolean | Promise<boolean>;
}

export interface CredentialSource {
  /** The connector's current credential, or undefined when it needs none. */
  resolve(connectorId: string): Promise<string | undefined>;
  /** The server refused `credential` (HTTP 401): a source that can renew it does so at the next resolve. */
  rejected?(connectorId: string, credential: string): void | Promise<void>;
}

/** How the host starts or reaches a connector: a command over stdio, or a streamable HTTP URL. */
export type ConnectorSpec = (
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
      /** Whether its sandbox has a network; unset: the host's default (the worker's step setting). */
      network?: boolean;
    }
  | { id: string; kind: "http"; url: string; headers?: Record<string, string> }
) & {
  /** Changes when the definition or its credential does: a live client of another version is closed. */
  version?: string;
};

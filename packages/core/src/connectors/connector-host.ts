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
};

export interface ConnectorHost {
  /** Every tool the connector offers (all pages). */
  listTools(connectorId: string, signal?: AbortSignal): Promise<UpstreamTool[]>;
  callTool(
    connectorId: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface LaneGate {
  allows(connectorId: string, lane: string): boolean | Promise<boolean>;
}

export interface CredentialSource {
  /** The connector's current credential, or undefined when it needs none. */
  resolve(connectorId: string): Promise<string | undefined>;
}

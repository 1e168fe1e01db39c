/**
 * A stateful streamable HTTP MCP server for tests, on the v1 server SDK: each session gets a
 * server of its own from `mcpFor`, so a tool can ask the client things (forms) mid-call on
 * its call's stream or on the session's own.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TEST_SERVERS_HOST } from "./recording-mcp-server";

export const serveMcpSessions = async (mcpFor: () => McpServer) => {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as unknown) : undefined;
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      const handle = async () => {
        if (known) return known.handleRequest(req, res, body);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void sessions.set(sid, transport),
        });
        await mcpFor().connect(transport);
        return transport.handleRequest(req, res, body);
      };
      handle().catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500).end(error.message);
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, TEST_SERVERS_HOST, resolve));
  return {
    http,
    url: `http://${TEST_SERVERS_HOST}:${(http.address() as AddressInfo).port}/mcp`,
  };
};

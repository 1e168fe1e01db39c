/**
 * A real MCP server over streamable HTTP (stateless) on loopback that records every request
 * it receives (method, path, headers, body), whatever it answers: a connector's destination,
 * or an attacker's server a credential must never reach. With `key`, it answers only
 * requests carrying `Authorization: Bearer <key>` (others get a 401); its one tool,
 * `fingerprint`, says which bearer it was given (the first 12 hex digits of its SHA-256).
 *
 * Test servers listen on TEST_SERVERS_HOST: the one place to change (and to name in an
 * egress allow-list) when loopback needs the operator's permission.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** Where every test server of these suites listens. */
export const TEST_SERVERS_HOST = "127.0.0.1";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
};

export type RecordingMcpServer = {
  url: string;
  readonly requests: RecordedRequest[];
  /** Every request as text (headers and body), to look for a credential in. */
  seen(): string;
  close(): Promise<void>;
};

export const fingerprintOf = (value: string) =>
  createHash("sha256").update(value).digest("hex").slice(0, 12);

export const startRecordingMcpServer = async (
  options: { key?: string } = {},
): Promise<RecordingMcpServer> => {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      if (options.key !== undefined && bearer !== options.key) {
        res.writeHead(401, { "www-authenticate": "Bearer" }).end();
        return;
      }
      const mcp = new McpServer({ name: "recording", version: "1.0.0" });
      mcp.registerTool(
        "fingerprint",
        { description: "Which bearer this server was given", inputSchema: {} },
        () =>
          Promise.resolve({
            content: [
              { type: "text", text: `fingerprint=${bearer ? fingerprintOf(bearer) : "none"}` },
            ],
          }),
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      void mcp
        .connect(transport)
        .then(() =>
          transport.handleRequest(req, res, body ? (JSON.parse(body) as unknown) : undefined),
        )
        .catch((error: Error) => {
          if (!res.headersSent) res.writeHead(500).end(error.message);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, TEST_SERVERS_HOST, resolve));
  const url = `http://${TEST_SERVERS_HOST}:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    requests,
    seen: () => JSON.stringify(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * A real MCP server over streamable HTTP (stateless) that is an OAuth protected resource:
 * it serves its RFC 9728 metadata at the path-inserted well-known URL, answers a request
 * without a live token for its resource with 401 and `WWW-Authenticate: Bearer
 * resource_metadata="…"`, and offers `whoami` (the token's subject) and `echo`.
 * `startMetadataOnlyAuthorizationServer` serves nothing but RFC 8414 metadata, for tests of
 * authorization servers a client must refuse.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import type { VerifiedAccessToken } from "./oauth-server";

/** What the MCP server needs of its authorization server. */
export type ResourceAuthority = {
  issuer: string;
  verifyAccessToken(token: string, resource: string): Promise<VerifiedAccessToken | undefined>;
  addResource?(resource: string, scope: string): void;
};

export type ProtectedMcpServerOptions = {
  authorizationServer: ResourceAuthority;
  /** Scopes the resource knows (default ["mcp:tools"]). */
  scopes?: string[];
  /** Whether the 401 names the metadata URL (default true); without it clients use the well-known URL. */
  announceMetadata?: boolean;
  /** Serve the metadata only at the root well-known URL, not the path-inserted one (default false). */
  metadataAtRoot?: boolean;
  /** The loopback address it listens on (default 127.0.0.1). */
  host?: string;
  /**
   * Scopes a call of a tool needs beyond `scopes` (scope step-up): a token without them gets
   * 403 `insufficient_scope` naming every scope the call needs. The authorization server is
   * told of them (addResource) though the 401 and the metadata name only `scopes`.
   */
  toolScopes?: Record<string, string>;
};

export type ProtectedMcpServer = {
  /** The MCP endpoint, which is also the resource identifier. */
  url: string;
  resourceMetadataUrl: string;
  /** Requests answered 401 so far. */
  readonly unauthorized: number;
  close(): Promise<void>;
};

const serve = async (
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  host = "127.0.0.1",
) => {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { base, close };
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const buildServer = (who: VerifiedAccessToken) => {
  const server = new McpServer({ name: "protected-fixture", version: "1.0.0" });
  server.registerTool(
    "whoami",
    { description: "The subject of the access token", inputSchema: {} },
    async () => ({ content: [{ type: "text", text: who.subject }] }),
  );
  server.registerTool(
    "echo",
    { description: "Echo the text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
};

/** The scope a `tools/call` in `body` needs when its token (`granted`) lacks some of it. */
const stepUpScope = (
  toolScopes: Record<string, string> | undefined,
  body: unknown,
  base: string[],
  granted: string,
) => {
  const call = body as { method?: string; params?: { name?: string } } | undefined;
  const extra = call?.method === "tools/call" ? toolScopes?.[call.params?.name ?? ""] : undefined;
  if (!extra) return undefined;
  const needed = [...base, ...extra.split(" ")];
  const held = new Set(granted.split(" "));
  return needed.every((s) => held.has(s)) ? undefined : needed.join(" ");
};

export const startProtectedMcpServer = async (
  options: ProtectedMcpServerOptions,
): Promise<ProtectedMcpServer> => {
  const scopes = options.scopes ?? ["mcp:tools"];
  let unauthorized = 0;
  let url = "";
  let metadataUrl = "";
  const http = await serve(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method === "GET" && path === new URL(metadataUrl).pathname) {
      json(res, 200, {
        resource: url,
        authorization_servers: [options.authorizationServer.issuer],
        scopes_supported: scopes,
        bearer_methods_supported: ["header"],
        resource_name: "protected fixture",
      });
      return;
    }
    if (path !== "/mcp") {
      json(res, 404, { error: "not found" });
      return;
    }
    const header = req.headers.authorization ?? "";
    const token = /^Bearer (.+)$/i.exec(header)?.[1];
    const who = token ? await options.authorizationServer.verifyAccessToken(token, url) : undefined;
    if (!who) {
      unauthorized++;
      const params = [
        ...(options.announceMetadata === false ? [] : [`resource_metadata="${metadataUrl}"`]),
        `scope="${scopes.join(" ")}"`,
        ...(token ? ['error="invalid_token"'] : []),
      ];
      res.writeHead(401, { "www-authenticate": `Bearer ${params.join(", ")}` });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = chunks.length
      ? JSON.parse(Buffer.concat(chunks).toString("utf8"))
      : undefined;
    const needs = stepUpScope(options.toolScopes, body, scopes, who.scope);
    if (needs) {
      const challenge = `Bearer error="insufficient_scope", scope="${needs}", resource_metadata="${metadataUrl}"`;
      res.writeHead(403, { "www-authenticate": challenge, "content-type": "application/json" });
      res.end(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = buildServer(who);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }, options.host);
  url = `${http.base}/mcp`;
  metadataUrl = `${http.base}/.well-known/oauth-protected-resource${options.metadataAtRoot ? "" : "/mcp"}`;
  const all = new Set([
    ...scopes,
    ...Object.values(options.toolScopes ?? {}).flatMap((s) => s.split(" ")),
  ]);
  options.authorizationServer.addResource?.(url, [...all].join(" "));
  return {
    url,
    resourceMetadataUrl: metadataUrl,
    get unauthorized() {
      return unauthorized;
    },
    close: http.close,
  };
};

/**
 * An authorization server that publishes its metadata and nothing else: at the RFC 8414
 * well-known URL, or only at OpenID's (`wellKnown`). `metadata` replaces or removes
 * (undefined) fields of a minimal valid document.
 */
export const startMetadataOnlyAuthorizationServer = async (
  metadata: Record<string, unknown> = {},
  wellKnown: "oauth-authorization-server" | "openid-configuration" = "oauth-authorization-server",
  /** The loopback address it listens on (default 127.0.0.1). */
  host?: string,
): Promise<ResourceAuthority & { close(): Promise<void> }> => {
  let document: Record<string, unknown> = {};
  const http = await serve(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path === `/.well-known/${wellKnown}`) json(res, 200, document);
    else json(res, 404, { error: "not found" });
  }, host);
  document = {
    issuer: http.base,
    authorization_endpoint: `${http.base}/authorize`,
    token_endpoint: `${http.base}/token`,
    registration_endpoint: `${http.base}/register`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    ...(wellKnown === "openid-configuration"
      ? {
          jwks_uri: `${http.base}/jwks`,
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }
      : {}),
    ...metadata,
  };
  return { issuer: http.base, verifyAccessToken: async () => undefined, close: http.close };
};

/**
 * The web app's API over real HTTP on 127.0.0.1, for a test whose client is another process:
 * `/api/v1/*` is the REST handler the Next.js route calls, with the same services, and
 * `/api/connectors/oauth/callback` is the connectors' OAuth callback route. The callback
 * completes in the session of a signed-in user; here the browser's session cookie is stood
 * in for by the same user's API token (`Authorization: Bearer sy_...`), so only whoever began
 * an authorization can complete it, as in the dashboard. The OAuth client metadata document
 * is served at its route too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import { authenticateApiToken, type Db } from "@switchyard/db";
import { CLIENT_METADATA_PATH } from "@switchyard/core/connectors";
import { clientMetadataAnswer } from "~/server/connectors/client-metadata";
import { callbackUrl, connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import type { WebEgress } from "~/server/egress";
import { handleRest } from "~/server/rest/rest-api";

export type WebAppServices = {
  db: Db;
  queue: Queue<RunJob>;
  redis: Redis;
  prefix: string;
  keyring: Keyring;
  egress: WebEgress;
};

export type WebAppServer = { origin: string; close: () => Promise<void> };

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks) : undefined;
};

const bearerUser = async (db: Db, req: Request) => {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  return token ? (await authenticateApiToken(db, token))?.userId : undefined;
};

/** Writes the answer as it comes: an event stream's messages reach the client as they are sent. */
const answer = async (res: ServerResponse, response: Response) => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.on("close", () => void response.body?.cancel().catch(() => undefined));
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
};

/** Listens on a free port of 127.0.0.1; `origin` is where the web app is reached (its AUTH_URL). */
export const startWebAppServer = async (services: () => WebAppServices): Promise<WebAppServer> => {
  const serve = async (req: IncomingMessage, res: ServerResponse, origin: string) => {
    const url = new URL(req.url ?? "/", origin);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await bodyOf(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const request = new Request(url, { method: req.method, headers, body });
    const s = services();
    if (url.pathname.startsWith("/api/v1/")) {
      const response = await handleRest(
        {
          db: s.db,
          queue: () => s.queue,
          prefix: s.prefix,
          publish: (channel, message) => s.redis.publish(channel, message),
          keyring: () => s.keyring,
          redis: () => s.redis,
          egress: () => s.egress,
        },
        request,
        url.pathname.slice("/api/v1".length),
      );
      return answer(res, response);
    }
    if (url.pathname === "/api/connectors/oauth/callback" && req.method === "GET") {
      const response = await connectorOAuthCallback(
        { db: s.db, redis: s.redis, keyring: s.keyring, prefix: s.prefix, egress: s.egress },
        await bearerUser(s.db, request),
        url,
      );
      return answer(res, response);
    }
    if (url.pathname === CLIENT_METADATA_PATH && req.method === "GET")
      return answer(res, await clientMetadataAnswer(callbackUrl));
    res.writeHead(404, { "content-type": "text/plain" });
    res.end(`no route ${req.method} ${url.pathname}`);
  };
  let origin = "";
  const server = createServer((req, res) => {
    serve(req, res, origin).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`web app test server: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

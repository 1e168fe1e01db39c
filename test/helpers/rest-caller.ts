/**
 * Calls the REST API's handler in-process, as the Next.js route does, with a bearer token.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import type { Db } from "@switchyard/db";
import { handleRest } from "~/server/rest/rest-api";

export type RestBody = {
  error?: {
    code: string;
    message: string;
    location?: Record<string, unknown>;
    details?: { diagnostics?: { code: string; line?: number }[] };
  };
} & Record<string, unknown>;

export type RestCall = (
  method: string,
  path: string,
  options?: { token?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; body: RestBody }>;

export const restCaller =
  (
    services: { db: Db; queue: Queue<RunJob>; redis: Redis; prefix: string; keyring?: Keyring },
    defaultToken: () => string | undefined = () => undefined,
  ): RestCall =>
  async (method, path, options = {}) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...options.headers,
    };
    const bearer = options.token ?? defaultToken();
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const res = await handleRest(
      {
        db: services.db,
        queue: () => services.queue,
        prefix: services.prefix,
        publish: (c, m) => services.redis.publish(c, m),
        keyring: services.keyring ? () => services.keyring! : undefined,
        redis: () => services.redis,
      },
      new Request(`http://localhost/api/v1${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      }),
      path.split("?")[0]!,
    );
    return { status: res.status, body: (await res.json()) as RestBody };
  };

/** The REST handler over a database alone (routes that start runs fail: there is no queue), as `token`. */
export const restOnDatabase =
  (db: () => Db) =>
  async (
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: RestBody }> => {
    const res = await handleRest(
      {
        db: db(),
        queue: () => {
          throw new Error("no queue");
        },
        prefix: "unused",
        publish: () => Promise.resolve(0),
      },
      new Request(`http://localhost/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      path.split("?")[0]!,
    );
    return { status: res.status, body: (await res.json()) as RestBody };
  };

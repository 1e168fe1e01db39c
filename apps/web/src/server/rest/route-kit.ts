/**
 * What a REST route is: the dependencies its handler gets, the route shape, and the helpers
 * that parse a body and answer. Routes are derived from the operation table
 * (api/rest-of.ts); `rest-api.ts` serves them all.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import type { WebEgress } from "../egress";
import type { authenticateApiToken, Db } from "@switchyard/db";
import { jsonAnswer } from "../http/api-answer";
import type { RestOperation } from "./openapi";

export type RestDeps = {
  db: Db;
  queue: () => Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
  /** the master key, for sealing secret variables (PUT /variables/{name}) and connector credentials */
  keyring?: () => Keyring;
  /** for the connector console (POST /connectors/{id}/call), which waits on a worker's answer */
  redis?: () => Redis;
  /** requests on a user's behalf (OAuth); the rule with no exceptions when unset */
  egress?: () => WebEgress;
};

export type Caller = NonNullable<Awaited<ReturnType<typeof authenticateApiToken>>>;
/**
 * `headers` and `signal` are the request's (Idempotency-Key, Last-Event-ID; a stream ends when its client goes);
 * `reauthenticate` checks the request's token again (for a stream that outlives the check it started with).
 */
export type Handler = (ctx: {
  deps: RestDeps;
  caller: Caller;
  reauthenticate: () => Promise<Caller | undefined>;
  params: string[];
  query: URLSearchParams;
  headers: Headers;
  signal: AbortSignal;
  body: () => Promise<unknown>;
}) => Promise<Response>;
export type Route = RestOperation & { handler: Handler };

export const sealingKeyring = (deps: RestDeps) => {
  if (!deps.keyring)
    throw new AppError("SYSTEM.CONFIG", "this server has no master key to seal secrets with");
  return deps.keyring();
};

/** A JSON answer (see http/api-answer.ts). */
export const reply = jsonAnswer;

export const parse = async <T>(schema: z.ZodType<T>, body: () => Promise<unknown>): Promise<T> => {
  const result = schema.safeParse(await body());
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.join(".") || undefined;
    throw new AppError("BAD_REQUEST", `${path ?? "body"}: ${issue?.message ?? "invalid"}`, {
      ...(path ? { location: { path } } : {}),
      details: { issues: result.error.issues },
    });
  }
  return result.data;
};

/**
 * Binds an area's declared operations (contract/<area>.types.ts) to what runs them: one
 * handler per operation, which both surfaces call with the same services and caller.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { z } from "zod";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import type { Db, Role } from "@switchyard/db";
import type { OperationSpec } from "../contract/operation";
import type { WebEgress } from "../egress";

/** What every handler may use, whichever surface called it. */
export type Services = {
  db: Db;
  queue: () => Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
  /** the master key; a SYSTEM.CONFIG error where the server has none */
  keyring: () => Keyring;
  /** a SYSTEM.CONFIG error where the server has no Redis connection */
  redis: () => Redis;
  /** requests on a user's behalf (OAuth); the rule with no exceptions when unset */
  egress?: () => WebEgress;
};

/** A team member, by session or API token (`tokenId`, `tokenExpiresAt`: the token the request came with). */
export type TeamCaller = {
  teamId: string;
  team: { id: string; name: string; slug: string };
  userId: string;
  role: Role;
  tokenId?: string;
  tokenExpiresAt?: Date | null;
};
/** A signed-in user or a token's member; a token acts in its team with its role. */
export type UserCaller = { userId: string; tokenId?: string; role?: Role };

type CallerOf<S extends OperationSpec> = S["access"] extends "team"
  ? TeamCaller
  : S["access"] extends "authed"
    ? UserCaller
    : undefined;

/** The REST request itself, for what only it carries (Idempotency-Key, Last-Event-ID, its end). */
export type RestRequest = {
  headers: Headers;
  signal: AbortSignal;
  reauthenticate: () => Promise<TeamCaller | undefined>;
};

export type HandlerContext<S extends OperationSpec> = Services & {
  caller: CallerOf<S>;
  surface: "trpc" | "rest";
  /** set on the REST surface */
  request?: RestRequest;
};

type InputOf<S extends OperationSpec> = S["input"] extends z.ZodType
  ? z.output<S["input"]>
  : undefined;
/** A Response is answered as it is, over REST only (a stream, a replayed start's 200). */
type Handler<S extends OperationSpec> = (
  ctx: HandlerContext<S>,
  input: InputOf<S>,
) => Promise<z.input<S["output"]> | Response> | z.input<S["output"]> | Response;

/** One handler per operation of an area. */
export type Handlers<A extends Record<string, OperationSpec>> = { [K in keyof A]: Handler<A[K]> };

/** Checks a REST request passes before its body is read (a refusal that must come before a bad body's). */
export type RestGuards<A extends Record<string, OperationSpec>> = {
  [K in keyof A]?: (ctx: HandlerContext<A[K]>) => Promise<void>;
};

export type ImplementedArea<A extends Record<string, OperationSpec>> = {
  specs: A;
  handlers: Handlers<A>;
  restGuards: RestGuards<A>;
};

export const implement = <A extends Record<string, OperationSpec>>(
  specs: A,
  handlers: Handlers<A>,
  restGuards: RestGuards<A> = {},
): ImplementedArea<A> => ({
  specs,
  handlers,
  restGuards,
});

/**
 * The dashboard's tRPC procedures called in-process as a signed-in user, with the same
 * context the HTTP route builds (database, queue, cancel channel, Redis).
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { keyringOf, parseMasterKey, type Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import type { Db } from "@switchyard/db";
import type { WebEgress } from "~/server/egress";
import type { TrpcContext } from "~/server/trpc/init";
import { createCaller } from "~/server/trpc/root";

/** `egress`: requests on a user's behalf (OAuth); the rule with no exceptions unless the test gives one. */
export type CallerServices = {
  db: Db;
  queue?: Queue<RunJob>;
  redis?: Redis;
  prefix?: string;
  keyring?: Keyring;
  egress?: WebEgress;
};

/** The keyring of the master key the test environment gives its workers. */
export const environmentKeyring = () =>
  keyringOf(
    parseMasterKey(
      process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
      process.env.SWITCHYARD_MASTER_KEY ?? "",
    ),
  );

const missing = (what: string) => () => {
  throw new Error(`this test gave the caller no ${what}`);
};

/**
 * `teamId` is the team the session acts in; without it, the user's first team. `membership`:
 * what the request's session check read (session-context.ts), when the test has one.
 */
export const dashboardCaller = (
  services: CallerServices,
  userId: string,
  teamId?: string,
  membership?: TrpcContext["membership"],
) =>
  createCaller({
    db: services.db,
    queue: services.queue ? () => services.queue! : missing("queue"),
    queuePrefix: services.prefix ?? "unused",
    publish: (channel, message) =>
      services.redis ? services.redis.publish(channel, message) : Promise.resolve(0),
    redis: services.redis ? () => services.redis! : missing("redis"),
    keyring: services.keyring ? () => services.keyring! : missing("keyring"),
    ...(services.egress ? { egress: () => services.egress! } : {}),
    userId,
    teamId,
    ...(membership ? { membership } : {}),
  });

/**
 * Inbound webhook deliveries accepted within their signature's five minutes, remembered in
 * Redis (shared by every web process) until the signature would be refused as expired
 * anyway: the same signed request sent again is refused with USER.WEBHOOK.REPLAYED and
 * starts no second run. A delivery is named by its signature's timestamp and the v1 that
 * matched (an HMAC of the timestamp and body: never the secret), claimed with one atomic
 * SET NX, and let go again when it started no run, so a sender may retry a failure.
 */
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";
import type { SignedDelivery } from "@switchyard/core/triggers";
import { redisReady } from "../redis-ready";

/** Kept this much longer than the signature lives, for clocks of web processes that differ a little. */
const CLOCK_MARGIN_S = 60;

/**
 * Claims the delivery for `triggerId`; throws USER.WEBHOOK.REPLAYED when it was accepted
 * before. `keep()` once a run started from it; `settle()` lets it go unless kept.
 */
export const claimDelivery = async (
  redis: Redis,
  prefix: string,
  triggerId: string,
  delivery: SignedDelivery,
) => {
  const key = `${prefix}:webhook:${triggerId}:${delivery.t}.${delivery.v1}`;
  const ttl = Math.max(1, delivery.expiresAt - Math.floor(Date.now() / 1000)) + CLOCK_MARGIN_S;
  await redisReady(redis, "inbound webhooks are unavailable");
  if ((await redis.set(key, "1", "EX", ttl, "NX")) !== "OK") {
    throw new AppError(
      "USER.WEBHOOK.REPLAYED",
      "this signed delivery was already accepted; sign each delivery anew (a new timestamp) to start another run",
    );
  }
  let kept = false;
  return {
    keep: () => {
      kept = true;
    },
    settle: async () => {
      if (kept) return;
      // Left remembered when Redis fails now: the sender's retry is refused as a replay until it expires.
      await redis
        .del(key)
        .catch((e: unknown) =>
          console.error(
            "switchyard-web: could not forget a webhook delivery",
            e instanceof Error ? e.message : e,
          ),
        );
    },
  };
};

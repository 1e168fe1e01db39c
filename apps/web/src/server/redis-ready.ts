/**
 * The web's Redis client queues nothing while it is not connected (it fails fast instead),
 * so a caller that needs an answer waits for the connection first, for a few seconds at
 * most, and otherwise fails with a retryable SYSTEM.REDIS_UNAVAILABLE saying what is
 * unavailable.
 */
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";

export const redisReady = (redis: Redis, unavailable: string, timeoutMs = 5000) =>
  redis.status === "ready"
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          redis.off("ready", done);
          resolve();
        };
        const timer = setTimeout(() => {
          redis.off("ready", done);
          reject(
            new AppError("SYSTEM.REDIS_UNAVAILABLE", `${unavailable}: Redis does not answer`, {
              retryable: true,
            }),
          );
        }, timeoutMs);
        redis.on("ready", done);
      });

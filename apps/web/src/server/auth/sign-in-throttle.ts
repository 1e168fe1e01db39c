/**
 * Counts sign-in attempts per account and per client address in Redis, so every web
 * process shares the counts. An attempt is counted before the password is checked; a
 * successful one clears its account's count and is taken back from its address's, so
 * only failures add up. Windows are fixed from an account's or address's first attempt.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";
import { redisReady } from "../redis-ready";

export type ThrottleLimit = { attempts: number; windowSeconds: number };
export type SignInLimits = { account: ThrottleLimit; address: ThrottleLimit };

export const SIGN_IN_LIMITS: SignInLimits = {
  account: { attempts: 10, windowSeconds: 15 * 60 },
  address: { attempts: 50, windowSeconds: 15 * 60 },
};

// KEYS: account, address; ARGV: their windows in ms. Returns count and ms left of each.
const COUNT = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  out[#out + 1] = n
  out[#out + 1] = ttl
end
return out`;

const connected = (redis: Redis) => redisReady(redis, "sign-in is unavailable");

const digest = (value: string) => createHash("sha256").update(value).digest("base64url");

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return m <= 1 ? "a minute" : `${m} minutes`;
};

export const signInThrottle = (
  redis: Redis,
  prefix: string,
  limits: SignInLimits = SIGN_IN_LIMITS,
) => {
  const accountKey = (email: string) => `${prefix}:signin:account:${digest(email.toLowerCase())}`;
  const addressKey = (address: string) => `${prefix}:signin:address:${digest(address)}`;
  return {
    /**
     * Counts one attempt (against the address too, when there is one); throws RATE_LIMITED,
     * with the seconds to wait, when a count is over its limit.
     */
    attempt: async (email: string, address?: string) => {
      const counted = [{ key: accountKey(email), limit: limits.account }];
      if (address !== undefined) counted.push({ key: addressKey(address), limit: limits.address });
      await connected(redis);
      const result = (await redis.eval(
        COUNT,
        counted.length,
        ...counted.map((c) => c.key),
        ...counted.map((c) => c.limit.windowSeconds * 1000),
      )) as number[];
      const waitMs = Math.max(
        0,
        ...counted.map((c, i) => (result[2 * i]! > c.limit.attempts ? result[2 * i + 1]! : 0)),
      );
      if (waitMs > 0) {
        const retryAfterSeconds = Math.ceil(waitMs / 1000);
        throw new AppError(
          "RATE_LIMITED",
          `too many sign-in attempts: try again in ${minutes(retryAfterSeconds)}`,
          {
            details: { retryAfterSeconds },
          },
        );
      }
    },
    /** After a successful attempt: the account starts afresh, and the attempt no longer counts against the address. */
    succeeded: async (email: string, address?: string) => {
      await connected(redis);
      const tx = redis.multi().del(accountKey(email));
      if (address !== undefined) tx.decr(addressKey(address));
      await tx.exec();
    },
  };
};

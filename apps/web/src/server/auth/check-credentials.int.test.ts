/**
 * Sign-in throttling against real Postgres and Redis: two callers with their own Redis
 * connections stand for two web processes, and share the per-account and per-address
 * counts.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import {
  createDb,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  verifyPasswordHash,
  type Db,
} from "@switchyard/db";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { checkCredentials, type CredentialDeps } from "./check-credentials";

const CHEAP = { logN: 10, r: 8, p: 1 };
const LIMITS = {
  account: { attempts: 3, windowSeconds: 600 },
  address: { attempts: 6, windowSeconds: 300 },
};

let database: TestDatabase;
let db: Db;
let redisA: Redis;
let redisB: Redis;
let webA: CredentialDeps;
let webB: CredentialDeps;

const user = async (email: string, password: string) =>
  db.user.create({
    data: { email, name: email, passwordHash: await hashPassword(password, CHEAP) },
  });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  redisA = new Redis(process.env.REDIS_URL!);
  redisB = new Redis(process.env.REDIS_URL!);
  const prefix = `sy-signin-${randomBytes(4).toString("hex")}`;
  webA = { db, redis: redisA, prefix, limits: LIMITS };
  webB = { db, redis: redisB, prefix, limits: LIMITS };
});
afterAll(async () => {
  const keys = await redisA.keys(`${webA.prefix}:*`);
  if (keys.length > 0) await redisA.del(...keys);
  redisA.disconnect();
  redisB.disconnect();
  await db.$disconnect();
  await database.drop();
});

it("refuses an account after too many failures, across web processes, with a retry-after", async () => {
  const alice = await user("alice@test.local", "alice-password");
  expect(
    await checkCredentials(webA, {
      email: "alice@test.local",
      password: "guess-1",
      address: "198.51.100.1",
    }),
  ).toBeUndefined();
  expect(
    await checkCredentials(webB, {
      email: "ALICE@test.local",
      password: "guess-2",
      address: "198.51.100.2",
    }),
  ).toBeUndefined();
  expect(
    await checkCredentials(webA, {
      email: "alice@test.local",
      password: "guess-3",
      address: "198.51.100.3",
    }),
  ).toBeUndefined();

  // Even the right password, from another address and process, waits now.
  const error = await refusal(
    checkCredentials(webB, {
      email: "alice@test.local",
      password: "alice-password",
      address: "198.51.100.4",
    }),
  );
  expect(error).toMatchObject({ code: "RATE_LIMITED" });
  const retryAfter = (error as { details: { retryAfterSeconds: number } }).details
    .retryAfterSeconds;
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect((error as Error).message).toMatch(/too many sign-in attempts/);

  // Another account from the same addresses is not held back.
  const bob = await user("bob@test.local", "bob-password");
  expect(
    (
      await checkCredentials(webA, {
        email: "bob@test.local",
        password: "bob-password",
        address: "198.51.100.1",
      })
    )?.id,
  ).toBe(bob.id);
  expect(alice.id).not.toBe(bob.id);
});

it("refuses an address after too many failures over several accounts, across web processes", async () => {
  const address = "203.0.113.9";
  for (let i = 0; i < 3; i++) await user(`addr${i}@test.local`, `password-${i}`);
  // Two failures on each of three accounts: no account reaches its limit, the address does.
  for (let i = 0; i < 6; i++) {
    const web = i % 2 === 0 ? webA : webB;
    expect(
      await checkCredentials(web, { email: `addr${i % 3}@test.local`, password: "wrong", address }),
    ).toBeUndefined();
  }
  const fresh = await user("fresh@test.local", "fresh-password");
  const error = await refusal(
    checkCredentials(webB, { email: "fresh@test.local", password: "fresh-password", address }),
  );
  expect(error).toMatchObject({
    code: "RATE_LIMITED",
    details: { retryAfterSeconds: expect.any(Number) as number },
  });
  // The same account from elsewhere is fine.
  expect(
    (
      await checkCredentials(webA, {
        email: "fresh@test.local",
        password: "fresh-password",
        address: "203.0.113.10",
      })
    )?.id,
  ).toBe(fresh.id);
});

it("forgets an account's failures after it signs in, and counts only failures against an address", async () => {
  await user("carol@test.local", "carol-password");
  const address = "192.0.2.44";
  for (let round = 0; round < 2; round++) {
    expect(
      await checkCredentials(webA, { email: "carol@test.local", password: "typo-1", address }),
    ).toBeUndefined();
    expect(
      await checkCredentials(webB, { email: "carol@test.local", password: "typo-2", address }),
    ).toBeUndefined();
    expect(
      await checkCredentials(webA, {
        email: "carol@test.local",
        password: "carol-password",
        address,
      }),
    ).toBeDefined();
  }
  // Six attempts so far, four of them failures: two more failures are allowed.
  expect(
    await checkCredentials(webB, { email: "carol@test.local", password: "typo-3", address }),
  ).toBeUndefined();
  expect(
    await checkCredentials(webA, { email: "carol@test.local", password: "typo-4", address }),
  ).toBeUndefined();
  const error = await refusal(
    checkCredentials(webB, { email: "carol@test.local", password: "carol-password", address }),
  );
  expect(error).toMatchObject({ code: "RATE_LIMITED" });
});

it("checks an unknown email against the dummy hash, like a wrong password", async () => {
  const verify = vi.fn(verifyPasswordHash);
  expect(
    await checkCredentials(
      { ...webA, verify },
      { email: "nobody@test.local", password: "anything", address: "192.0.2.99" },
    ),
  ).toBeUndefined();
  expect(verify).toHaveBeenCalledTimes(1);
  expect(verify).toHaveBeenCalledWith("anything", DUMMY_PASSWORD_HASH);
});

it("waits for the web's Redis connection on the first attempt after boot, which queues nothing offline", async () => {
  const dave = await user("dave@test.local", "dave-password");
  // As the web app opens it: no offline queue, so a command sent before the connection is up fails.
  const booting = new Redis(process.env.REDIS_URL!, {
    maxRetriesPerRequest: null,
    enableOfflineQueue: false,
  });
  try {
    const signedIn = await checkCredentials(
      { ...webA, redis: booting },
      { email: "dave@test.local", password: "dave-password", address: "192.0.2.7" },
    );
    expect(signedIn?.id).toBe(dave.id);
  } finally {
    booting.disconnect();
  }
});

it("refuses passwords while the installation signs in through single sign-on only and an issuer is configured", async () => {
  await user("sso@test.local", "sso-password-1");
  await db.instanceSettings.update({ where: { id: "instance" }, data: { ssoOnly: true } });
  try {
    await expect(
      checkCredentials(
        { ...webA, ssoConfigured: true },
        { email: "sso@test.local", password: "sso-password-1", address: "198.51.100.40" },
      ),
    ).rejects.toMatchObject({
      code: "USER.INSTANCE.SSO_ONLY",
    });
    // Without an issuer the setting cannot hold: passwords still work, so nobody is locked out.
    expect(
      await checkCredentials(
        { ...webA, ssoConfigured: false },
        { email: "sso@test.local", password: "sso-password-1", address: "198.51.100.40" },
      ),
    ).toMatchObject({
      email: "sso@test.local",
    });
  } finally {
    await db.instanceSettings.update({ where: { id: "instance" }, data: { ssoOnly: false } });
  }
});

/**
 * Writes across a real PostgreSQL restart (a private server of this test's own): a write sent
 * while the server is down waits for it and lands once, an outage longer than allowed ends
 * as SYSTEM.DATABASE_UNAVAILABLE (retryable), a statement the server refuses is not tried
 * again, and the errors the pg pool and Prisma give for a server that is not there are both
 * told apart from refusals.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { isAppError } from "@switchyard/core/errors";
import { createDb, isDatabaseUnavailable, whileDatabaseUnavailable, type Db } from "@switchyard/db";
import { poolOf } from "../packages/db/src/client";
import { startPrivatePostgres, type PrivatePostgres } from "./helpers/private-services";

let server: PrivatePostgres;
let db: Db;

beforeAll(async () => {
  server = await startPrivatePostgres();
  db = createDb(server.url, { max: 2 });
  await poolOf(db)!.query(`CREATE TABLE writes (id text PRIMARY KEY, n int NOT NULL)`);
}, 120_000);
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const insert = (id: string) =>
  poolOf(db)!.query(`INSERT INTO writes (id, n) VALUES ($1, 1) ON CONFLICT (id) DO NOTHING`, [id]);
const count = async (id: string) =>
  Number(
    (await poolOf(db)!.query<{ n: string }>(`SELECT count(*) AS n FROM writes WHERE id = $1`, [id]))
      .rows[0]!.n,
  );

it("waits for a restarting server and stores the write once", async () => {
  await insert("warm");
  const retries: unknown[] = [];
  // The server stops now and comes back in 3 s; the write is sent while it is down.
  const restarted = server.restart(3000);
  const written = whileDatabaseUnavailable(() => insert("during"), {
    outageMs: 30_000,
    onRetry: (e) => retries.push(e),
  });
  await restarted;
  await written;
  expect(retries.length).toBeGreaterThan(0);
  expect(retries.every(isDatabaseUnavailable)).toBe(true);
  expect(await count("during")).toBe(1);
}, 60_000);

it("fails with SYSTEM.DATABASE_UNAVAILABLE, retryable, when the outage outlasts the allowance", async () => {
  const restarted = server.restart(4000);
  const started = Date.now();
  const error = await whileDatabaseUnavailable(() => insert("too-late"), { outageMs: 1500 }).catch(
    (e: unknown) => e,
  );
  expect(Date.now() - started).toBeLessThan(3500);
  expect(isAppError(error) && [error.code, error.retryable]).toEqual([
    "SYSTEM.DATABASE_UNAVAILABLE",
    true,
  ]);
  // Prisma's own error for the same outage is told apart as well.
  const prisma = await db.$queryRawUnsafe("SELECT 1").catch((e: unknown) => e);
  expect(isDatabaseUnavailable(prisma)).toBe(true);
  await restarted;
  expect(await count("too-late")).toBe(0);
}, 60_000);

it("does not try again a statement the server refuses", async () => {
  let tries = 0;
  const error = await whileDatabaseUnavailable(
    async () => {
      tries++;
      return poolOf(db)!.query(`INSERT INTO writes (id, n) VALUES ('bad', NULL)`);
    },
    { outageMs: 10_000 },
  ).catch((e: unknown) => e);
  expect(tries).toBe(1);
  expect(isDatabaseUnavailable(error)).toBe(false);
  expect((error as { code?: string }).code).toBe("23502");
  const prisma = await db.$queryRawUnsafe("SELECT * FROM no_such_table").catch((e: unknown) => e);
  expect(isDatabaseUnavailable(prisma)).toBe(false);
});

/**
 * Opens a Prisma client over the pg driver adapter (no native query engine). The adapter's
 * pool is kept by the client, so bulk writes (tool-call records) can go straight to
 * node-postgres: a Prisma raw query passes every parameter through its query compiler,
 * which costs more than the insert for thousands of rows. `$disconnect` ends the pool.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client";

export type Db = PrismaClient;

const pools = new WeakMap<Db, pg.Pool>();

/** A Prisma client on its own pg pool of at most `options.max` connections (10 unless told). */
export const createDb = (databaseUrl: string, options: { max?: number } = {}): Db => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10 });
  const db = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Prisma's defaults (2 s to get a connection, 5 s to finish) answered a busy host's
    // requests with "Unable to start a transaction in the given time" while the pool was
    // only queued behind other requests: wait as long as an HTTP client would.
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
  });
  pools.set(db, pool);
  return db;
};

/** The pool under a client made by createDb (none for other clients). */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/**
 * One SQL statement with positional parameters, straight on the pool when there is one
 * (no query compiler on the way), else through Prisma. For the worker's hot path only;
 * rows come back as node-postgres reads them (jsonb parsed, int as number).
 */
export const rawQuery = async <T>(db: Db, sql: string, params: unknown[]): Promise<T[]> => {
  const pool = poolOf(db);
  if (pool) return (await pool.query(sql, params)).rows as T[];
  return db.$queryRawUnsafe<T[]>(sql, ...params);
};

type Query = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * Statements in one transaction on one connection of the pool (through Prisma when there
 * is no pool), committed when `body` resolves and rolled back when it throws. For the
 * worker's hot path, where a statement must see what committed while it waited for a lock.
 */
export const inTransaction = async <R>(db: Db, body: (query: Query) => Promise<R>): Promise<R> => {
  const pool = poolOf(db);
  if (!pool)
    return db.$transaction((tx) =>
      body(<T>(sql: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...params)),
    );
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await body(
      async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as T[],
    );
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client
      .query("ROLLBACK")
      .catch((e: unknown) => (broken = e instanceof Error ? e : new Error(String(e))));
    throw error;
  } finally {
    // A connection that could not roll back is not handed to the next caller.
    client.release(broken);
  }
};

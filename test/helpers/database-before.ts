/**
 * A database migrated up to (not including) one migration, for tests of what that
 * migration does to rows that existed before it: write the old rows, apply it, read them.
 * Each file is applied in one query, as the test template does.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrationNames, readMigration } from "./migration-sql";

const withDatabase = (base: string, database: string) => {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
};

export type DatabaseBefore = {
  /** one statement (or a script without parameters) on the database */
  query: <R extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<R[]>;
  /** applies the migration the database stopped before */
  migrate: () => Promise<void>;
  drop: () => Promise<void>;
};

export const databaseBefore = async (
  migration: string,
  base = process.env.DATABASE_URL!,
): Promise<DatabaseBefore> => {
  const names = migrationNames();
  const at = names.indexOf(migration);
  if (at < 0) throw new Error(`no migration ${migration}`);
  // Named like the harness's test databases, so an interrupted run's leftover is dropped.
  const name = `sy_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: withDatabase(base, "postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const client = new pg.Client({ connectionString: withDatabase(base, name) });
  await client.connect();
  for (const earlier of names.slice(0, at)) await client.query(readMigration(earlier));
  return {
    query: async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
      (await client.query<R>(sql, params)).rows,
    migrate: async () => {
      await client.query(readMigration(migration));
    },
    drop: async () => {
      await client.end();
      const again = new pg.Client({ connectionString: withDatabase(base, "postgres") });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.end();
    },
  };
};

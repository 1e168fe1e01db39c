/**
 * Test isolation by name: migrations are applied once to a template database (named by a
 * hash of the migration files, so it is rebuilt only when they change), and each test file
 * clones it into a database of its own.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const MIGRATIONS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../prisma/migrations",
);

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

const migrationFiles = () =>
  readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => ({
      name,
      sql: readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8"),
    }));

const adminQuery = async (baseUrl: string, sql: string) => {
  const client = new pg.Client({ connectionString: withDatabase(baseUrl, "postgres") });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};

/** Creates (once) the migrated template database and returns its name. */
export const prepareTemplate = async (baseUrl: string) => {
  const files = migrationFiles();
  const hash = createHash("sha256");
  for (const f of files) hash.update(f.name).update(f.sql);
  const name = `sy_tpl_${hash.digest("hex").slice(0, 16)}`;
  const exists = await adminQuery(baseUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
  if (exists.rowCount === 1) return name;
  const building = `${name}_b${randomBytes(3).toString("hex")}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${building}"`);
  const client = new pg.Client({ connectionString: withDatabase(baseUrl, building) });
  await client.connect();
  try {
    for (const f of files) await client.query(f.sql);
  } finally {
    await client.end();
  }
  try {
    await adminQuery(baseUrl, `ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } catch (e) {
    // another process built it at the same time
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${building}"`);
    const again = await adminQuery(baseUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
    if (again.rowCount !== 1) throw e;
  }
  return name;
};

export type TestDatabase = { url: string; name: string; drop: () => Promise<void> };

/** A fresh database cloned from the template; `drop` removes it. */
const createTestDatabase = async (baseUrl: string, template: string): Promise<TestDatabase> => {
  // The name carries its creation time: see dropStaleTestDatabases.
  const name = `sy_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(baseUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (e) {
      if (attempt >= 10) throw e;
      await new Promise((r) => setTimeout(r, 100 + attempt * 100));
    }
  }
  return {
    name,
    url: withDatabase(baseUrl, name),
    drop: async () => {
      await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
};

const STALE_AFTER_MS = 2 * 60 * 60_000;

/**
 * Removes test databases left by interrupted runs, and only those: suites run side by side
 * on one server, so a database is a leftover once it is older than any run (by the time in
 * its name), or, for a template or a name without a time, once nobody is connected to it.
 */
export const dropStaleTestDatabases = async (baseUrl: string, keepTemplate: string) => {
  const res = await adminQuery(
    baseUrl,
    `SELECT d.datname, (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname)::int AS connections
       FROM pg_database d WHERE d.datname LIKE 'sy_test_%' OR (d.datname LIKE 'sy_tpl_%' AND d.datname <> '${keepTemplate}')`,
  );
  for (const row of res.rows as { datname: string; connections: number }[]) {
    const born = /^sy_test_([0-9a-z]+)_[0-9a-f]+$/.exec(row.datname)?.[1];
    const stale = born ? Date.now() - parseInt(born, 36) > STALE_AFTER_MS : row.connections === 0;
    if (stale) await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  }
};

/** For a test file: a database of its own, cloned from the (cached) migrated template. */
export const freshDatabase = async (baseUrl = process.env.DATABASE_URL) => {
  if (!baseUrl) throw new Error("DATABASE_URL is not set: run the suite with `npm test`");
  return createTestDatabase(baseUrl, await prepareTemplate(baseUrl));
};

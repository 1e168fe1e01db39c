/**
 * The real `prisma migrate deploy` (JS schema engine over the pg driver adapter, as `npm
 * start` and the container run it) migrates an empty database completely, and ends with the
 * same schema as the test template, which applies each file in one query.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { freshDatabase } from "@switchyard/testing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationNames } from "./helpers/migration-sql";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const base = process.env.DATABASE_URL!;

const withDatabase = (database: string) => {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
};

const query = async <R extends pg.QueryResultRow>(url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
};

// Named like the harness's test databases, so an interrupted run's leftover is dropped.
const empty = `sy_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;

const deploy = async () => {
  try {
    const out = await promisify(execFile)(
      process.execPath,
      ["node_modules/prisma/build/index.js", "migrate", "deploy"],
      {
        cwd: ROOT,
        shell: false,
        timeout: 150_000,
        killSignal: "SIGKILL",
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: withDatabase(empty),
          CHECKPOINT_DISABLE: "1",
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
        },
      },
    );
    return { ok: true, output: `${out.stdout}${out.stderr}` };
  } catch (e) {
    const failed = e as {
      code?: number | string;
      signal?: string;
      stdout?: string;
      stderr?: string;
    };
    const ended = `migrate deploy ended with ${failed.signal ?? `exit code ${failed.code}`}`;
    return { ok: false, output: `${ended}\n${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
};

// Everything the migrations define in `public`, in a stable order, without Prisma's own table.
const SCHEMA_SQL = `
  SELECT 'column' AS kind, table_name || '.' || column_name AS name,
         concat_ws(' ', ordinal_position, data_type, udt_name, is_nullable, column_default) AS definition
    FROM information_schema.columns
   WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
  UNION ALL
  SELECT 'index', indexname, indexdef FROM pg_indexes
   WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
  UNION ALL
  SELECT 'constraint', c.conrelid::regclass::text || '.' || c.conname, pg_get_constraintdef(c.oid)
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
   WHERE n.nspname = 'public' AND c.conrelid <> 0 AND c.conrelid::regclass::text <> '_prisma_migrations'
  UNION ALL
  SELECT 'enum', t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname = 'public' GROUP BY t.typname
  ORDER BY 1, 2`;

type MigrationRow = {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

describe("prisma migrate deploy on an empty database", () => {
  let result: { ok: boolean; output: string };

  beforeAll(async () => {
    await query(withDatabase("postgres"), `CREATE DATABASE "${empty}"`);
    result = await deploy();
  }, 180_000);

  afterAll(async () => {
    await query(withDatabase("postgres"), `DROP DATABASE IF EXISTS "${empty}" WITH (FORCE)`);
  });

  it("exits 0 and records every migration folder as applied, none failed", async () => {
    expect(result.ok, result.output).toBe(true);
    const rows = await query<MigrationRow>(
      withDatabase(empty),
      `SELECT migration_name, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY migration_name, started_at`,
    );
    const failed = rows.filter((r) => r.finished_at === null || r.rolled_back_at !== null);
    expect(failed.map((r) => `${r.migration_name}: ${r.logs ?? ""}`)).toEqual([]);
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
  });

  it("leaves the same tables, columns, indexes, constraints and enums as the test template", async () => {
    const template = await freshDatabase(base);
    try {
      const expected = await query(template.url, SCHEMA_SQL);
      expect(expected.length).toBeGreaterThan(0);
      expect(await query(withDatabase(empty), SCHEMA_SQL)).toEqual(expected);
    } finally {
      await template.drop();
    }
  });
});

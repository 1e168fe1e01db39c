import pg from "pg";
import { expect, it } from "vitest";
import { dropStaleTestDatabases, freshDatabase, prepareTemplate } from "./test-database";

const base = process.env.DATABASE_URL!;
const admin = async (sql: string) => {
  const u = new URL(base);
  u.pathname = "/postgres";
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};
const exists = async (name: string) =>
  (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount === 1;

it("drops the databases of interrupted runs, never one that a run going on at the same time uses", async () => {
  const template = await prepareTemplate(base);
  const current = await freshDatabase();
  const leftover = `sy_test_${(Date.now() - 3 * 60 * 60_000).toString(36)}_0000beef`;
  await admin(`CREATE DATABASE "${leftover}"`);
  try {
    await dropStaleTestDatabases(base, template);
    expect(await exists(current.name)).toBe(true);
    expect(await exists(leftover)).toBe(false);
    expect(await exists(template)).toBe(true);
  } finally {
    await current.drop();
    await admin(`DROP DATABASE IF EXISTS "${leftover}"`);
  }
});

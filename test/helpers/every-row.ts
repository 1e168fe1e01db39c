/**
 * Every row of every table of a test database as JSON text (sealed columns come out as hex):
 * what a test searches to show that a secret is stored nowhere in the clear.
 */
import type { Db } from "@switchyard/db";

export const everyRow = async (db: Db) => {
  const tables = await db.$queryRaw<
    { name: string }[]
  >`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  const rows = await Promise.all(
    tables.map((t) =>
      db.$queryRawUnsafe<{ row: string }[]>(
        `SELECT row_to_json(t)::text AS row FROM "${t.name}" t`,
      ),
    ),
  );
  return rows
    .flat()
    .map((r) => r.row)
    .join("\n");
};

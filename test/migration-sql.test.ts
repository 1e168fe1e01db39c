/**
 * Every migration survives the pg driver adapter's split on `;` (what `prisma migrate
 * deploy` runs in production), not only the whole-file query the test template uses.
 */
import { describe, expect, it } from "vitest";
import {
  adapterStatements,
  migrationNames,
  misplacedSemicolons,
  readMigration,
} from "./helpers/migration-sql";

describe("migration SQL under the adapter's split", () => {
  it.each(migrationNames())("%s has a `;` only where a statement ends", (name) => {
    expect(misplacedSemicolons(readMigration(name))).toEqual([]);
  });

  it("finds a `;` in a line comment, a block comment, a string, a quoted identifier and a dollar quote", () => {
    const sql = [
      "-- existing rows keep it; new ones do not",
      "/* one; /* nested; */ still; */",
      'ALTER TABLE "T" ADD COLUMN "a" TEXT DEFAULT \'x;y\', ADD COLUMN "b;c" INT;',
      "UPDATE \"T\" SET \"a\" = E'it\\'s; fine' WHERE 'don''t;' <> '';",
      "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;",
      "DO $$ BEGIN PERFORM 1; END $$;",
    ].join("\n");
    expect(misplacedSemicolons(sql).map((m) => [m.line, m.inside])).toEqual([
      [1, "line comment"],
      [2, "block comment"],
      [2, "block comment"],
      [2, "block comment"],
      [3, "string"],
      [3, "quoted identifier"],
      [4, "string"],
      [4, "string"],
      [5, "dollar quote"],
      [6, "dollar quote"],
    ]);
  });

  it("accepts terminators, comments after them and `$` in identifiers", () => {
    const sql =
      'ALTER TABLE "T" ADD COLUMN "n" INT; -- a note\nSELECT price$1 FROM "T";\n/* closing */';
    expect(misplacedSemicolons(sql)).toEqual([]);
  });

  it("mirrors the adapter: the words after a `;` in a comment become a statement of their own", () => {
    const statements = adapterStatements("-- old rows; new rows differ\nSELECT 1;\n");
    expect(statements).toEqual(["-- old rows", "new rows differ\nSELECT 1"]);
  });
});

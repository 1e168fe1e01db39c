/**
 * How `prisma migrate deploy` cuts a migration into statements, and where that cut goes wrong.
 * The pg driver adapter (`@prisma/adapter-pg`, `executeScript`) splits the file on every `;`,
 * whatever surrounds it, and sends each trimmed, non-empty piece as a statement of its own.
 * A `;` inside a comment, a string, a quoted identifier or a dollar-quoted body therefore
 * sends the rest of that text to the server as SQL.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../prisma/migrations",
);

/** The migration folders, in the order Prisma applies them. */
export const migrationNames = () =>
  readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

export const readMigration = (name: string) =>
  readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");

/** The statements the pg driver adapter sends, in order (its rule, copied). */
export const adapterStatements = (script: string) =>
  script
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

type MisplacedSemicolon = {
  line: number;
  inside: "line comment" | "block comment" | "string" | "quoted identifier" | "dollar quote";
  text: string;
};

/**
 * Every `;` that is not a statement terminator, with its line and what it sits in. Empty
 * when splitting on `;` yields exactly the file's statements.
 */
export const misplacedSemicolons = (sql: string): MisplacedSemicolon[] => {
  const found: MisplacedSemicolon[] = [];
  const lineAt = (i: number) => sql.slice(0, i).split("\n").length;
  const report = (from: number, to: number, inside: MisplacedSemicolon["inside"]) => {
    for (let i = sql.indexOf(";", from); i !== -1 && i < to; i = sql.indexOf(";", i + 1)) {
      found.push({ line: lineAt(i), inside, text: sql.split("\n")[lineAt(i) - 1]!.trim() });
    }
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      report(i, stop, "line comment");
      i = stop;
    } else if (c === "/" && next === "*") {
      // PostgreSQL block comments nest.
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        const step = sql.startsWith("/*", j) ? 1 : sql.startsWith("*/", j) ? -1 : 0;
        depth += step;
        j += step === 0 ? 1 : 2;
      }
      report(i, j, "block comment");
      i = j;
    } else if (c === "'" || c === '"') {
      // A doubled quote stays inside; E'' strings may also escape a quote with a backslash.
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? "") && !/\w/.test(sql[i - 2] ?? "");
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === "\\") j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      report(i, j, c === "'" ? "string" : "quoted identifier");
      i = j + 1;
    } else if (c === "$") {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
      if (tag && !/\w/.test(sql[i - 1] ?? "")) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        report(i, stop, "dollar quote");
        i = stop;
      } else i++;
    } else i++;
  }
  return found;
};

/**
 * Writes Codex's config.toml from plain values: strings, numbers, booleans, lists of
 * strings, and nested tables (written as `[a.b]` sections). Strings are TOML basic strings
 * with every control character escaped, so a prompt or a path can never end a value or
 * start a key of its own. Keys are written bare when they are [A-Za-z0-9_-], quoted otherwise.
 */
export type TomlValue = string | number | boolean | readonly string[] | TomlTable;
export type TomlTable = { readonly [key: string]: TomlValue | undefined };

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

const escapeChar = (c: string): string => {
  switch (c) {
    case "\\":
      return "\\\\";
    case '"':
      return '\\"';
    case "\n":
      return "\\n";
    case "\t":
      return "\\t";
    case "\r":
      return "\\r";
    default: {
      const code = c.charCodeAt(0);
      return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : c;
    }
  }
};

export const tomlString = (text: string): string => `"${Array.from(text, escapeChar).join("")}"`;

const key = (name: string) => (BARE_KEY.test(name) ? name : tomlString(name));

const isTable = (value: TomlValue): value is TomlTable =>
  typeof value === "object" && !Array.isArray(value);

const scalar = (value: Exclude<TomlValue, TomlTable>): string => {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`TOML cannot hold ${value}`);
    return String(value);
  }
  return `[${value.map(tomlString).join(", ")}]`;
};

const section = (path: readonly string[], table: TomlTable, out: string[]) => {
  const entries = Object.entries(table).filter(
    (entry): entry is [string, TomlValue] => entry[1] !== undefined,
  );
  const plain = entries.filter(([, v]) => !isTable(v));
  const nested = entries.filter(([, v]) => isTable(v));
  if (path.length > 0 && (plain.length > 0 || nested.length === 0))
    out.push(`${out.length > 0 ? "\n" : ""}[${path.map(key).join(".")}]`);
  for (const [name, value] of plain)
    out.push(`${key(name)} = ${scalar(value as Exclude<TomlValue, TomlTable>)}`);
  for (const [name, value] of nested) section([...path, name], value as TomlTable, out);
};

export const toToml = (table: TomlTable): string => {
  const out: string[] = [];
  section([], table, out);
  return `${out.join("\n")}\n`;
};

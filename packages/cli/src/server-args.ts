/**
 * The options of the server commands (login, workflows, runs, waits), parsed strictly with
 * node:util: an unknown option or a missing value is a USER error that shows the usage.
 */
import { parseArgs } from "node:util";
import { AppError } from "@switchyard/core/errors";
import type { Io } from "./validate-command";

type Kinds = Record<string, "boolean" | "string" | "strings">;
type Flags<K extends Kinds> = {
  [N in keyof K]: K[N] extends "boolean"
    ? boolean
    : K[N] extends "string"
      ? string | undefined
      : string[];
};

export const parseServerArgs = <K extends Kinds>(argv: string[], kinds: K, usage: string) => {
  const options = Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => [
      name,
      kind === "boolean"
        ? { type: "boolean" as const }
        : { type: "string" as const, multiple: kind === "strings" },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `${(error as Error).message}\n${usage}`);
  }
  const flags = Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => {
      const value = parsed.values[name];
      return [
        name,
        kind === "boolean" ? value === true : kind === "strings" ? (value ?? []) : value,
      ];
    }),
  ) as Flags<K>;
  return { flags, positionals: parsed.positionals };
};

/** One `--input key=value` as its key and value (the value may hold more `=`). */
export const inputPair = (pair: string): [string, string] => {
  const eq = pair.indexOf("=");
  if (eq <= 0)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `--input expects key=value, got "${pair}"`, {
      location: { path: "inputs" },
    });
  return [pair.slice(0, eq), pair.slice(eq + 1)];
};

/** `--input key=value` pairs as an object; the server checks them against the workflow's inputs. */
export const inputPairs = (pairs: string[]) => Object.fromEntries(pairs.map(inputPair));

type Subcommand = (argv: string[], io: Io, env: NodeJS.ProcessEnv) => Promise<number>;

/** A command of subcommands (`runs start ...`): runs the one argv names, else shows the usage. */
export const subcommands =
  (table: Record<string, Subcommand>, usage: string): Subcommand =>
  (argv, io, env) => {
    const [name, ...rest] = argv;
    const run = name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
    if (!run) throw new AppError("USER.INPUT.VALIDATION_FAILED", usage);
    return run(rest, io, env);
  };

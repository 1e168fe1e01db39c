/**
 * The local connectors of `switchyard run`: a JSON file in the `mcpServers` shape other MCP
 * clients read (`.switchyard/connectors.json` next to the workflow, or `--connectors <file>`),
 * stdio servers only (an http server is a Switchyard server's connector). Each server is a
 * command, its arguments and its environment; an environment value may name the person's
 * variables as `${NAME}`, read here and nowhere else; those values, and literal ones that
 * a secret's name or shape gives away, are secrets of the run (scrubbed from whatever is
 * printed). A bad file is refused with USER.CONNECTOR.INVALID,
 * its line and the field at fault.
 */
import { namesASecret, secretLookalike } from "@switchyard/core/connectors";
import { AppError } from "@switchyard/core/errors";

export const CONNECTORS_FILE = ".switchyard/connectors.json";

export type LocalConnector = {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
};

export type LocalConnectors = {
  file: string;
  servers: ReadonlyMap<string, LocalConnector>;
  /** The environment values, to scrub from everything printed or stored. */
  secrets: string[];
};

/** A connector's name is also the head of its tools' names (`<name>_<tool>`), as on a server. */
const NAME = /^[a-z][a-z0-9_]{0,31}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const SERVER_KEYS = ["command", "args", "env", "type"];

/** Line and column of a key path in the JSON text (each key searched after the one before it). */
const positionOf = (text: string, keys: readonly string[]) => {
  let at = 0;
  for (const key of keys) {
    const found = text.indexOf(JSON.stringify(key), at);
    if (found < 0) break;
    at = found;
  }
  return lineColumn(text, at);
};

const lineColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads and checks a connectors file; `variables` are the person's, for `${NAME}`. */
export const parseLocalConnectors = (
  text: string,
  file: string,
  variables: NodeJS.ProcessEnv,
): LocalConnectors => {
  const fail = (keys: readonly string[], message: string, where = positionOf(text, keys)) => {
    const field = keys.join(".");
    return new AppError(
      "USER.CONNECTOR.INVALID",
      `${file}:${where.line}:${where.column}: ${field ? `${field}: ` : ""}${message}`,
      { location: { file, path: field, ...where } },
    );
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message)?.[1];
    throw fail(
      [],
      `not JSON (${message})`,
      lineColumn(text, offset === undefined ? 0 : Number(offset)),
    );
  }
  if (!isObject(data) || !isObject(data.mcpServers))
    throw fail(
      ["mcpServers"],
      'the file is {"mcpServers": {"<name>": {"command": "...", "args": [...], "env": {...}}}}',
    );
  const servers = new Map<string, LocalConnector>();
  const secrets: string[] = [];
  for (const [name, server] of Object.entries(data.mcpServers)) {
    const at = (...keys: string[]) => ["mcpServers", name, ...keys];
    if (!NAME.test(name))
      throw fail(
        at(),
        "a connector's name is 1 to 32 lower-case letters, digits and _, starting with a letter (its tools are named <name>_<tool>)",
      );
    if (!isObject(server)) throw fail(at(), "a server is an object with a command");
    for (const key of Object.keys(server))
      if (!SERVER_KEYS.includes(key))
        throw fail(
          at(key),
          key === "url"
            ? "switchyard run starts stdio servers only: an http server is a connector of a Switchyard server (docs/connectors.md)"
            : `unknown field (a server has ${SERVER_KEYS.join(", ")})`,
        );
    if (server.type !== undefined && server.type !== "stdio")
      throw fail(at("type"), "switchyard run starts stdio servers only");
    if (typeof server.command !== "string" || server.command.trim() === "")
      throw fail(at("command"), "the command that starts the server, a non-empty string");
    const args = server.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string"))
      throw fail(at("args"), "a list of strings");
    const env: Record<string, string> = {};
    const given = server.env ?? {};
    if (!isObject(given)) throw fail(at("env"), "an object of names and string values");
    for (const [key, value] of Object.entries(given)) {
      if (!ENV_NAME.test(key)) throw fail(at("env", key), "not an environment variable name");
      if (typeof value !== "string") throw fail(at("env", key), "a string");
      let fromYou = false;
      env[key] = value.replace(VARIABLE, (_, variable: string) => {
        const found = variables[variable];
        if (found === undefined)
          throw fail(at("env", key), `\${${variable}} is not set in your environment`);
        secrets.push(found);
        fromYou = true;
        return found;
      });
      // Not every literal: a short one ("true") would be scrubbed from all output.
      if (fromYou || namesASecret(key) || secretLookalike(value)) secrets.push(env[key]);
    }
    servers.set(name, { name, command: server.command, args: args as string[], env });
  }
  return { file, servers, secrets: [...new Set(secrets)] };
};

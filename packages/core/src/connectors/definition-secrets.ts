/**
 * Finds the first field of a connector definition that holds what looks like a secret:
 * a value of a known token shape or random enough to be a key anywhere, and a value given
 * under a name that says it is secret (`--api-key=…`, `GITHUB_TOKEN=…` in the
 * environment, `?access_token=…`, an `Authorization` header). Names and values are both
 * read; the finding names the field, never the value.
 */
import { namesASecret, secretLookalike } from "./secret-lookalike";
import type { ToolAllow } from "./tool-allow";

type SecretFinding = { path: string; what: string };

/** What is read of a definition (its parsed form). */
type CheckedDefinition = {
  name: string;
  description: string;
  lanes: readonly string[];
  initial_tools: readonly string[];
  tool_allow: ToolAllow;
} & (
  | {
      transport: "stdio";
      command: string;
      args: readonly string[];
      env: Readonly<Record<string, string>>;
    }
  | {
      transport: "http";
      url: string;
      oauth_client_id?: string;
      headers?: Readonly<Record<string, string>>;
    }
);

const NAMED = "its name says so";
/** Values a secret-named field may hold: none, a switch, or a variable's name. */
const NOT_A_SECRET = /^(?:|true|false|yes|no|on|off|0|1|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)$/i;
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);
/** `--api-key=v`, `--api-key` (its value next), `-t`. */
const FLAG = /^--?([A-Za-z][A-Za-z0-9_-]*)(?:=([\s\S]*))?$/;
/** `GITHUB_TOKEN=v`, as in `docker run -e`. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;
/** `Authorization: …`, as in `--header`. */
const HEADER_LINE = /^\s*([A-Za-z0-9-]+)\s*:\s*\S/;

const lookalike = (path: string, ...values: string[]): SecretFinding | undefined => {
  for (const value of values) {
    const what = secretLookalike(value);
    if (what) return { path, what };
  }
  return undefined;
};

const isCredentialHeader = (name: string) =>
  CREDENTIAL_HEADERS.has(name.toLowerCase()) || namesASecret(name);
const headerWhat = (name: string) =>
  CREDENTIAL_HEADERS.has(name.toLowerCase()) ? `the ${name} header` : `a header named ${name}`;

const inArgs = (args: readonly string[]): SecretFinding | undefined => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const path = `args[${i}]`;
    const found = lookalike(path, arg);
    if (found) return found;
    const flag = FLAG.exec(arg);
    if (flag && namesASecret(flag[1]!)) {
      const what = `the value of ${arg.split("=")[0]!}`;
      if (flag[2] !== undefined) {
        if (!NOT_A_SECRET.test(flag[2])) return { path, what };
        continue;
      }
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("-") && !NOT_A_SECRET.test(next)) {
        return { path: `args[${i + 1}]`, what };
      }
      continue;
    }
    const assignment = ASSIGNMENT.exec(arg);
    if (assignment && namesASecret(assignment[1]!) && !NOT_A_SECRET.test(assignment[2]!))
      return { path, what: NAMED };
    const header = HEADER_LINE.exec(arg);
    if (header && isCredentialHeader(header[1]!)) return { path, what: headerWhat(header[1]!) };
  }
  return undefined;
};

const inRecord = (
  field: string,
  record: Readonly<Record<string, string>>,
  namedSecret: (name: string, value: string) => boolean,
): SecretFinding | undefined => {
  for (const [name, value] of Object.entries(record)) {
    const path = `${field}.${name}`;
    const found = lookalike(path, value, name);
    if (found) return found;
    if (namedSecret(name, value))
      return { path, what: field === "headers" ? headerWhat(name) : NAMED };
  }
  return undefined;
};

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const inUrl = (value: string): SecretFinding | undefined => {
  const url = new URL(value);
  for (const [name, v] of url.searchParams) {
    if (namesASecret(name) && !NOT_A_SECRET.test(v))
      return { path: "url", what: `the query parameter ${name}` };
    const found = lookalike("url", v, name);
    if (found) return found;
  }
  const parts = [url.hostname, ...url.pathname.split("/").map(decoded), decoded(url.hash.slice(1))];
  return lookalike("url", ...parts);
};

/** A client id is public and may look random (`1234-abc….apps.googleusercontent.com`): only token shapes count. */
const clientId = (id: string | undefined): SecretFinding | undefined => {
  if (id === undefined) return undefined;
  const what = secretLookalike(id, { randomness: false });
  return what ? { path: "oauth_client_id", what } : undefined;
};

/** The first field that holds what looks like a secret, in the order a form shows them. */
export const findSecret = (def: CheckedDefinition): SecretFinding | undefined => {
  const found =
    lookalike("name", def.name) ??
    lookalike("description", def.description) ??
    (def.transport === "stdio"
      ? (lookalike("command", def.command) ??
        inArgs(def.args) ??
        inRecord("env", def.env, (name, value) => namesASecret(name) && !NOT_A_SECRET.test(value)))
      : (inUrl(def.url) ??
        inRecord("headers", def.headers ?? {}, (name) => isCredentialHeader(name)) ??
        clientId(def.oauth_client_id)));
  if (found) return found;
  for (const [i, lane] of def.lanes.entries()) {
    const inLane = lookalike(`lanes[${i}]`, lane);
    if (inLane) return inLane;
  }
  for (const [i, tool] of def.initial_tools.entries()) {
    const inTool = lookalike(`initial_tools[${i}]`, tool);
    if (inTool) return inTool;
  }
  for (const [lane, rule] of Object.entries(def.tool_allow)) {
    for (const kind of ["allow", "deny"] as const) {
      for (const [i, pattern] of (rule[kind] ?? []).entries()) {
        const inRule = lookalike(`tool_allow.${lane}.${kind}[${i}]`, pattern, lane);
        if (inRule) return inRule;
      }
    }
  }
  return undefined;
};

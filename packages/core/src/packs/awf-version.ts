/**
 * The AWF language version Switchyard implements, and the check of a pack's `awf_version`
 * against it with AWF's constraint rules: constraints separated by spaces or commas, all of
 * which must hold; each is an operator (==, !=, >, >=, <, <=, ~, ^; none means ==) before a
 * MAJOR.MINOR.PATCH version with an optional pre-release.
 */

/** The AWF release whose user guide docs/workflows.md follows. */
export const AWF_LANGUAGE_VERSION = "0.11.0";

type Version = { major: number; minor: number; patch: number; pre: string };

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*))?$/;
const CONSTRAINT = /^(==|!=|>=|<=|>|<|~|\^)?(.*)$/;
type Operator = "==" | "!=" | ">=" | "<=" | ">" | "<" | "~" | "^";

const parseVersion = (text: string): Version | undefined => {
  const m = VERSION.exec(text);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? "" };
};

const compare = (a: Version, b: Version): number => {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  if (a.pre === b.pre) return 0;
  if (a.pre === "") return 1;
  if (b.pre === "") return -1;
  return a.pre < b.pre ? -1 : 1;
};

const holds = (op: Operator, want: Version, have: Version): boolean => {
  const c = compare(have, want);
  switch (op) {
    case "==":
      return c === 0;
    case "!=":
      return c !== 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case "~":
      return have.major === want.major && have.minor === want.minor && have.patch >= want.patch;
    case "^":
      if (have.major !== want.major) return false;
      if (want.major === 0) return have.minor === want.minor && have.patch >= want.patch;
      return have.minor > want.minor || (have.minor === want.minor && have.patch >= want.patch);
  }
};

type AwfVersionCheck =
  | { ok: true }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "incompatible"; message: string };

/** Checks `constraint` (a manifest's awf_version) against the version Switchyard implements. */
export const checkAwfVersion = (
  constraint: string,
  current: string = AWF_LANGUAGE_VERSION,
): AwfVersionCheck => {
  const parts = constraint.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  const have = parseVersion(current);
  if (parts.length === 0 || !have)
    return {
      ok: false,
      reason: "invalid",
      message: "must be a version constraint such as >=0.5.0",
    };
  for (const part of parts) {
    const [, op, rest] = CONSTRAINT.exec(part) ?? [];
    const want = parseVersion(rest ?? "");
    if (!want)
      return {
        ok: false,
        reason: "invalid",
        message: `"${part}" is not a version constraint (an operator ==, !=, >, >=, <, <=, ~ or ^ before a version such as 0.5.0)`,
      };
    if (!holds((op ?? "==") as Operator, want, have))
      return {
        ok: false,
        reason: "incompatible",
        message: `the pack needs AWF ${constraint}; Switchyard implements the AWF language of version ${current}`,
      };
  }
  return { ok: true };
};

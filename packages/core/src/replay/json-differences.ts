/**
 * Where two JSON values differ, as paths (`$.files[2].name`) with each side's value there:
 * what the compare view shows of a tool call's arguments and result.
 */

/** One place the values differ: changed, only in a (removed) or only in b (added). */
export type JsonDifference = {
  path: string;
  kind: "changed" | "removed" | "added";
  a?: unknown;
  b?: unknown;
};

/** Past this many differences the list stops (the values are shown whole beside it). */
const MAX_DIFFERENCES = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const keyPath = (path: string, key: string) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

const walk = (a: unknown, b: unknown, path: string, out: JsonDifference[]) => {
  if (out.length >= MAX_DIFFERENCES) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const at = `${path}[${i}]`;
      if (i >= a.length) out.push({ path: at, kind: "added", b: b[i] });
      else if (i >= b.length) out.push({ path: at, kind: "removed", a: a[i] });
      else walk(a[i], b[i], at, out);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const at = keyPath(path, key);
      if (!(key in a)) out.push({ path: at, kind: "added", b: b[key] });
      else if (!(key in b)) out.push({ path: at, kind: "removed", a: a[key] });
      else walk(a[key], b[key], at, out);
    }
    return;
  }
  if (!Object.is(a, b) && JSON.stringify(a) !== JSON.stringify(b))
    out.push({ path, kind: "changed", a, b });
};

/** The paths where b differs from a, in key order; none when they are equal as JSON. */
export const jsonDifferences = (a: unknown, b: unknown): JsonDifference[] => {
  const out: JsonDifference[] = [];
  walk(a, b, "$", out);
  return out.slice(0, MAX_DIFFERENCES);
};

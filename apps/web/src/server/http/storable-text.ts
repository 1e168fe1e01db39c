/**
 * Text the database cannot store is refused where a request comes in: Postgres text holds
 * no NUL character (U+0000) and jsonb neither a NUL nor a lone UTF-16 surrogate, so such a
 * value would otherwise fail deep inside a query as a server error. Every REST body, path
 * parameter and query value and every tRPC input is checked, object keys included.
 */
import { AppError } from "@switchyard/core/errors";

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path (`files.a`, `[2]`) of the first string or key that cannot be stored, or undefined. */
const findUnstorable = (value: unknown): string | undefined => {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (UNSTORABLE.test(v)) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: `${path}[${i}]` }));
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        if (UNSTORABLE.test(key)) return path || "(a key)";
        stack.push({ v: item, path: at });
      }
    }
  }
  return undefined;
};

/** Throws BAD_REQUEST naming where the unstorable text is; `what` names the value (body, input, a parameter). */
export const assertStorableText = (value: unknown, what: string) => {
  const path = findUnstorable(value);
  if (path === undefined) return;
  const where = path ? `${what} ${path}` : what;
  throw new AppError(
    "BAD_REQUEST",
    `${where}: text may not contain a NUL character (U+0000) or a lone UTF-16 surrogate`,
    {
      location: { path: path || what },
    },
  );
};

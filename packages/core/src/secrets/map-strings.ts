/**
 * Rebuilds a JSON-like value with every string in it (object keys included) passed through
 * `fn`: for scrubbing structured data value by value, never as serialised text, where a
 * replacement could land on a number, a quote or a key and break the JSON.
 */
export const mapStrings = (value: unknown, fn: (s: string) => string): unknown => {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === "object") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return mapStrings((toJSON as () => unknown).call(value), fn);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[fn(k)] = mapStrings(v, fn);
    return out;
  }
  return value;
};

/**
 * RFC 8785 (JSON Canonicalization Scheme) canonical form of a JSON value: object keys sorted
 * by their UTF-16 code units, numbers as ECMAScript serialises them, strings escaped as
 * JSON.stringify does, no whitespace. Two calls whose arguments differ only in key order,
 * spacing or number spelling (`1.0`, `1e0`) have the same canonical form: replay matching
 * and approval hashes (SHA-256 of these bytes) compare arguments in it.
 */
import { AppError } from "../errors";

const serialise = (value: unknown, where: string): string | undefined => {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      // I-JSON has no NaN or Infinity; ECMAScript's Number-to-String is JCS's number form (-0 is "0").
      if (!Number.isFinite(value))
        throw new AppError(
          "USER.INPUT.VALIDATION_FAILED",
          `${where} is ${value}, which JSON cannot hold`,
          { location: { path: where } },
        );
      return JSON.stringify(value);
    case "undefined":
    case "function":
    case "symbol":
      // As JSON.stringify: left out of objects, null in arrays.
      return undefined;
    case "bigint":
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `${where} is a bigint, which JSON cannot hold`,
        { location: { path: where } },
      );
    case "object":
      break;
  }
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return serialise(json.call(value) as unknown, where);
  if (Array.isArray(value))
    return `[${value.map((item, i) => serialise(item, `${where}[${i}]`) ?? "null").join(",")}]`;
  // Array.prototype.sort without a comparator orders strings by UTF-16 code units, as JCS asks.
  const members = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const item = serialise((value as Record<string, unknown>)[key], `${where}.${key}`);
      return item === undefined ? [] : [`${JSON.stringify(key)}:${item}`];
    });
  return `{${members.join(",")}}`;
};

/** The RFC 8785 canonical JSON text of `value` (a value JSON cannot hold is an AppError). */
export const canonicalJson = (value: unknown): string => serialise(value, "(root)") ?? "null";

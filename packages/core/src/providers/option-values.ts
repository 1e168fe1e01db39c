/**
 * Readers for agent step `options` that every provider spells the same way. Values rendered
 * from templates arrive as strings, so lists may be comma-separated text. A bad value is
 * USER.INPUT.VALIDATION_FAILED at `options.<key>`.
 */
import { AppError } from "../errors/app-error";

export const invalidOption = (key: string, message: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", `options.${key} ${message}`, {
    location: { path: `options.${key}` },
  });

/** A list of tool names, or text with names separated by commas; trimmed, empties dropped. */
export const readNameList = (
  options: Record<string, unknown>,
  key: string,
): string[] | undefined => {
  const raw = options[key];
  if (raw === undefined || raw === null) return undefined;
  const list =
    typeof raw === "string"
      ? raw.split(",")
      : Array.isArray(raw) && raw.every((v) => typeof v === "string")
        ? raw
        : undefined;
  if (!list)
    throw invalidOption(
      key,
      'must be a list of tool names or a comma-separated text ("Read,Grep")',
    );
  return list.map((n) => n.trim()).filter((n) => n !== "");
};

/** A number between `min` and `max` (an integer when asked), or a numeric text; undefined when absent. */
export const readNumber = (
  options: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  integer = false,
): number | undefined => {
  const raw = options[key];
  if (raw === undefined || raw === null || raw === "") return undefined;
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  )
    throw invalidOption(
      key,
      `must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
  return value;
};

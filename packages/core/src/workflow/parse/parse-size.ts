/**
 * Sizes as AWF's configuration reference writes them: a number of bytes, or a number with
 * one of its units B, KB, MB, GB ("500KB", "1.5MB"; any case, a space allowed), each
 * 1024 times the one before. Returns whole bytes, or undefined for anything else.
 */
const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

export const SIZE_UNITS = "B, KB, MB or GB";

export const parseSize = (value: unknown): number | undefined => {
  if (typeof value === "number")
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*([KMG]?B)?$/i.exec(value.trim());
  if (!m) return undefined;
  const bytes = Number(m[1]) * UNIT_BYTES[(m[2] ?? "B").toUpperCase()]!;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
};

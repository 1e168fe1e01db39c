/**
 * `{{parameters.x}}` in a template's values, replaced at load time as AWF does: a value
 * that is only the placeholder takes the parameter's value as it is (a number stays a
 * number), a placeholder inside text takes its text.
 */
const REF = /\{\{\s*\.?parameters\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*\.?parameters\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}$/;

/** The parameter names a text refers to, in order. */
export const parameterRefs = (text: string): string[] => [...text.matchAll(REF)].map((m) => m[1]!);

const asText = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
};

/** A copy of `value` with every placeholder replaced from `params` (all of them declared). */
export const substituteParameters = (
  value: unknown,
  params: Readonly<Record<string, unknown>>,
): unknown => {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return params[whole[1]!];
    return value.replace(REF, (_, name: string) => asText(params[name]));
  }
  if (Array.isArray(value)) return value.map((v) => substituteParameters(v, params));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substituteParameters(v, params)]),
    );
  return value;
};

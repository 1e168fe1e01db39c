/**
 * PostgreSQL's text and jsonb columns refuse U+0000, and runs store whatever processes
 * print: one NUL byte in a step's output would fail the write. Every run-time write of
 * text or JSON goes through here, and each U+0000 becomes U+FFFD (the replacement
 * character), in strings, object keys and nested values alike.
 */

/** A string with U+0000 in it, as it would appear inside JSON text: an odd run of backslashes then u0000. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

export function storableText(text: string): string;
export function storableText(text: string | null | undefined): string | null | undefined;
export function storableText(text: string | null | undefined) {
  return typeof text === "string" && text.includes("\u0000")
    ? text.replaceAll("\u0000", "\uFFFD")
    : text;
}

/** A JSON value whose strings and keys hold no U+0000 (the same value when none did). */
export const storableJson = <T>(value: T): T => {
  const text = JSON.stringify(value);
  if (text === undefined || !text.includes("\\u0000")) return value;
  return JSON.parse(text.replace(ESCAPED_NUL, "$1\\ufffd")) as T;
};

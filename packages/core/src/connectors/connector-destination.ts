/**
 * What decides where a connector's credential goes: for an http connector its URL and the
 * headers sent with it, for a stdio one the program, its arguments and its environment
 * (a server reads where to send its token from any of them), and for both the transport. A
 * credential was given for one destination; a change of any of these would hand it to
 * another, so every credential of the connector must be connected again first (the caller
 * marks them in the same transaction as the change).
 */
import type { ConnectorDefinition } from "./definition";

const DESTINATION_FIELDS = [
  "transport",
  "url",
  "headers",
  "command",
  "args",
  "env",
  "credential_env",
] as const;
type DestinationField = (typeof DESTINATION_FIELDS)[number];

/** A field's value with object keys in order, so `{a, b}` and `{b, a}` compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : v,
  ) ?? "";

const fieldOf = (def: ConnectorDefinition, field: DestinationField): unknown => {
  const value = (def as Record<string, unknown>)[field];
  // No headers and empty headers send the same requests.
  if (field === "headers" && value !== undefined && Object.keys(value as object).length === 0)
    return undefined;
  // `HTTPS://Host/mcp` and `https://host/mcp` are one destination.
  if (field === "url" && typeof value === "string") return new URL(value).href;
  return value;
};

/** The fields that decide where the credential goes and differ between the two definitions, in a fixed order. */
export const destinationChanges = (
  before: ConnectorDefinition,
  after: ConnectorDefinition,
): DestinationField[] =>
  DESTINATION_FIELDS.filter(
    (field) => canonical(fieldOf(before, field)) !== canonical(fieldOf(after, field)),
  );

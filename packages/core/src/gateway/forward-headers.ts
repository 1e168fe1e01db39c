/**
 * The headers that cross the gateway. Upstream: the client's headers minus hop-by-hop
 * ones, anything that looks like a credential (the step token among them) and anything
 * that would let the client pick an account or pose as another address, plus the real key
 * in the vendor's header. Back to the client: the upstream's headers minus hop-by-hop
 * ones and cookies.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import type { HeaderStyle } from "./gateway-types";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Set by the gateway itself, or meaningless once the body has been read. */
const REPLACED = new Set(["host", "content-length", "expect", "accept-encoding"]);

/** Headers that choose an account or claim an origin; the registration decides those. */
const CLIENT_CHOSEN = new Set([
  "openai-organization",
  "openai-project",
  "x-goog-user-project",
  "forwarded",
  "via",
  "x-real-ip",
]);

/** Names that carry credentials in some API or proxy (`x-api-key`, `authorization`, `cookie`, `x-auth-token`, ...). */
const CREDENTIAL_LIKE =
  /auth|token|secret|passw|cookie|credential|signature|api[-_]?key|(^|[-_])key$/i;

const named = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

const keyHeader = (style: HeaderStyle, key: string): [string, string] => {
  switch (style) {
    case "x-api-key":
      return ["x-api-key", key];
    case "bearer":
      return ["authorization", `Bearer ${key}`];
    case "x-goog-api-key":
      return ["x-goog-api-key", key];
    case "api-key":
      return ["api-key", key];
  }
};

export type UpstreamHeaderOptions = {
  apiKey: string;
  headerStyle: HeaderStyle;
  fixed: Record<string, string>;
  host: string;
  bodyLength: number | undefined;
};

export const upstreamHeaders = (
  incoming: IncomingHttpHeaders,
  options: UpstreamHeaderOptions,
): OutgoingHttpHeaders => {
  const listed = new Set(named(incoming.connection));
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (HOP_BY_HOP.has(name) || listed.has(name) || REPLACED.has(name)) continue;
    if (CLIENT_CHOSEN.has(name) || name.startsWith("x-forwarded-")) continue;
    if (CREDENTIAL_LIKE.test(name)) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(options.fixed)) out[name.toLowerCase()] = value;
  const [name, value] = keyHeader(options.headerStyle, options.apiKey);
  out[name] = value;
  out.host = options.host;
  out["accept-encoding"] = "identity"; // the usage reader reads the body as it passes
  if (options.bodyLength !== undefined) out["content-length"] = String(options.bodyLength);
  return out;
};

/** The upstream's response headers as the client gets them; `scrub` cleans each value. */
export const clientHeaders = (
  incoming: IncomingHttpHeaders,
  scrub: (value: string) => string,
  dropLength: boolean,
): OutgoingHttpHeaders => {
  const listed = new Set(named(incoming.connection));
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (HOP_BY_HOP.has(name) || listed.has(name) || name === "set-cookie") continue;
    if (dropLength && name === "content-length") continue;
    out[name] = Array.isArray(value) ? value.map(scrub) : scrub(value);
  }
  return out;
};

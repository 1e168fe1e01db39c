/**
 * What the scripted model keeps of each request: headers with every credential replaced by a
 * fingerprint (so a test can tell which key reached the model endpoint without the key ever
 * being stored), and which credential header the client used.
 */
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The headers that carry credentials in the four vendor APIs (and common proxies). */
const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "x-goog-api-key",
  "api-key",
  "cookie",
]);

/** A short, stable, one-way stand-in for a secret: `sha256:` and 12 hex characters. */
export const fingerprint = (secret: string) =>
  `sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 12)}`;

const redactValue = (name: string, value: string) => {
  const bearer = /^(Bearer|Basic)\s+(.*)$/i.exec(value);
  if (name.endsWith("authorization") && bearer)
    return `${bearer[1]} <${fingerprint(bearer[2] ?? "")}>`;
  return `<${fingerprint(value)}>`;
};

export const redactHeaders = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    out[name] = SECRET_HEADERS.has(name) ? redactValue(name, value) : value;
  }
  return out;
};

/** Which credential the request carried: `x-api-key` (Anthropic), `authorization` with a
 * Bearer token (OpenAI), `x-goog-api-key` or the `key` query parameter (Gemini). */
export type RequestAuth = {
  header: "x-api-key" | "authorization" | "x-goog-api-key" | "api-key" | "query:key";
  scheme?: string;
  fingerprint: string;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const authOf = (headers: IncomingHttpHeaders, url: URL): RequestAuth[] => {
  const found: RequestAuth[] = [];
  for (const header of ["x-api-key", "x-goog-api-key", "api-key"] as const) {
    const value = first(headers[header]);
    if (value) found.push({ header, fingerprint: fingerprint(value) });
  }
  const authorization = first(headers.authorization);
  if (authorization) {
    const m = /^(\S+)\s+(.*)$/.exec(authorization);
    found.push(
      m
        ? { header: "authorization", scheme: m[1], fingerprint: fingerprint(m[2] ?? "") }
        : { header: "authorization", fingerprint: fingerprint(authorization) },
    );
  }
  const key = url.searchParams.get("key");
  if (key) found.push({ header: "query:key", fingerprint: fingerprint(key) });
  return found;
};

/** The request path with a `key` query parameter replaced by its fingerprint. */
export const redactPath = (url: URL) => {
  if (!url.searchParams.has("key")) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set("key", `<${fingerprint(url.searchParams.get("key") ?? "")}>`);
  return copy.pathname + copy.search;
};

/**
 * The only requests the gateway forwards: each vendor's model API paths (and model lists),
 * matched whole against the request path, so nothing else of an upstream is reachable
 * through a step token. Also where each vendor's CLI expects its base URL to point.
 */
import type { Vendor } from "./gateway-types";
import type { MeteredApi } from "./usage-reader";

export type Route = {
  vendor: Vendor;
  /** Which usage format the response has; undefined for requests that use no tokens. */
  api: MeteredApi | undefined;
  /** Appended to the upstream base URL. */
  upstreamPath: string;
  /** The model named in the path (Gemini). */
  model?: string;
};

type RouteRule = {
  vendor: Vendor;
  method: "GET" | "POST";
  pattern: RegExp;
  api?: MeteredApi;
};

const ID = "[A-Za-z0-9._@-]+";

const RULES: RouteRule[] = [
  { vendor: "anthropic", method: "POST", pattern: /^\/v1\/messages$/, api: "anthropic-messages" },
  { vendor: "anthropic", method: "POST", pattern: /^\/v1\/messages\/count_tokens$/ },
  { vendor: "anthropic", method: "GET", pattern: new RegExp(`^/v1/models(?:/${ID})?$`) },
  { vendor: "openai", method: "POST", pattern: /^\/v1\/chat\/completions$/, api: "openai-chat" },
  { vendor: "openai", method: "POST", pattern: /^\/v1\/responses$/, api: "openai-responses" },
  { vendor: "openai", method: "GET", pattern: new RegExp(`^/v1/models(?:/${ID})?$`) },
  {
    vendor: "gemini",
    method: "POST",
    pattern: new RegExp(`^/v1(?:beta)?/models/(${ID}):(?:generateContent|streamGenerateContent)$`),
    api: "gemini",
  },
  {
    vendor: "gemini",
    method: "POST",
    pattern: new RegExp(`^/v1(?:beta)?/models/(${ID}):countTokens$`),
  },
  { vendor: "gemini", method: "GET", pattern: new RegExp(`^/v1(?:beta)?/models(?:/${ID})?$`) },
];

/** Paths answered by the gateway itself: Claude Code's connectivity probes. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/", "/api/hello"]);

/** A segment `.` or `..` (which a URL parser would resolve) is never forwarded. */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

const matches = (rule: RouteRule, method: string, pathname: string) =>
  rule.method === method && !DOT_SEGMENT.test(pathname) && rule.pattern.test(pathname);

/** Whether any vendor's API has this method and path (else the gateway answers 404 at once). */
export const isKnownRoute = (method: string, pathname: string): boolean =>
  RULES.some((rule) => matches(rule, method, pathname));

export const routeFor = (vendor: Vendor, method: string, pathname: string): Route | undefined => {
  const rule = RULES.find((r) => r.vendor === vendor && matches(r, method, pathname));
  if (!rule) return undefined;
  const model = rule.vendor === "gemini" ? rule.pattern.exec(pathname)?.[1] : undefined;
  return {
    vendor,
    api: rule.api,
    // OpenAI base URLs carry their version (https://api.openai.com/v1), as in OpenAI's SDKs.
    upstreamPath: vendor === "openai" ? pathname.slice("/v1".length) : pathname,
    ...(model ? { model } : {}),
  };
};

/**
 * The base URL a vendor's CLI wants for a gateway reached at `origin` (e.g.
 * `http://127.0.0.1:8080` behind a loopback forwarder): `ANTHROPIC_BASE_URL` and
 * `GOOGLE_GEMINI_BASE_URL` take the origin, OpenAI clients (Codex, OpenCode) `origin/v1`.
 */
export const stepBaseUrl = (vendor: Vendor, origin: string): string => {
  const base = origin.replace(/\/+$/, "");
  switch (vendor) {
    case "openai":
      return `${base}/v1`;
    case "anthropic":
    case "gemini":
      return base;
  }
};

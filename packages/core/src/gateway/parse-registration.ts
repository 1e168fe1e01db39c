/**
 * Checks a registration before the gateway issues a token for it: a known vendor, an
 * http(s) base URL without credentials, query or fragment, a key and fixed headers that
 * cannot break a header line, a meter function. Errors name the field and never show
 * the key.
 */
import { AppError } from "../errors";
import type { ParsedUpstream } from "./forward-request";
import {
  DEFAULT_HEADER_STYLE,
  HEADER_STYLES,
  VENDORS,
  type RegisterOptions,
  type Vendor,
} from "./gateway-types";

export type ParsedRegistration = {
  vendor: Vendor;
  upstream: ParsedUpstream;
  meter: RegisterOptions["meter"];
  label: string | undefined;
  admit: RegisterOptions["admit"];
};

const invalid = (path: string, problem: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", `model gateway registration: ${path} ${problem}`, {
    location: { path },
  });

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and spaces inside; a CR, LF or other control character would split the header. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const RESERVED = new Set(["host", "content-length", "connection", "transfer-encoding"]);

export const parseRegistration = (options: RegisterOptions): ParsedRegistration => {
  const { vendor, upstream, meter } = options;
  if (!VENDORS.includes(vendor)) throw invalid("vendor", `must be one of ${VENDORS.join(", ")}`);
  if (typeof meter !== "function") throw invalid("meter", "must be a function");
  if (options.admit !== undefined && typeof options.admit !== "function")
    throw invalid("admit", "must be a function");
  let url: URL;
  try {
    url = new URL(upstream.baseUrl);
  } catch {
    throw invalid("upstream.baseUrl", "is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalid("upstream.baseUrl", "must be http: or https:");
  if (url.username || url.password)
    throw invalid("upstream.baseUrl", "must not carry credentials (use upstream.apiKey)");
  if (url.search || url.hash)
    throw invalid("upstream.baseUrl", "must not have a query or fragment");
  if (typeof upstream.apiKey !== "string" || !HEADER_VALUE.test(upstream.apiKey))
    throw invalid("upstream.apiKey", "must be a non-empty key of visible characters");
  const headerStyle = upstream.headerStyle ?? DEFAULT_HEADER_STYLE[vendor];
  if (!HEADER_STYLES.includes(headerStyle))
    throw invalid("upstream.headerStyle", `must be one of ${HEADER_STYLES.join(", ")}`);
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(upstream.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase()))
      throw invalid(`upstream.headers.${name}`, "is not a header the gateway may set");
    if (typeof value !== "string" || !HEADER_VALUE.test(value))
      throw invalid(`upstream.headers.${name}`, "must be visible characters");
    fixed[name.toLowerCase()] = value;
  }
  const secure = url.protocol === "https:";
  return {
    vendor,
    meter,
    label: options.label,
    admit: options.admit,
    upstream: {
      secure,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : secure ? 443 : 80,
      host: url.host,
      basePath: url.pathname.replace(/\/+$/, ""),
      apiKey: upstream.apiKey,
      headerStyle,
      fixed,
    },
  };
};

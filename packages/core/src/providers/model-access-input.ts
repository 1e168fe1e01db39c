/**
 * Checks what an admin gives for a vendor's model access: endpoints (base URLs) and API
 * keys. An endpoint is stored as checkBaseUrl compares it (origin and path, no trailing
 * slash), so an allowed endpoint saved here is one a step's `options.base_url` can match.
 * A key travels to the vendor, so plain http is refused except on loopback. Messages name
 * the field and never repeat a key, a password or a query.
 */
import { AppError } from "../errors/app-error";

const MAX_URL = 2048;
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const ENCODED_SEPARATOR = /%(2f|5c|2e)/i;
/** Printable ASCII without blanks: a key goes into a request header as it is. */
const KEY_TEXT = /^[\x21-\x7e]+$/;
const MIN_KEY = 8;
const MAX_KEY = 4096;

const invalid = (field: string, why: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", `${field} ${why}`, { location: { path: field } });

const isLoopback = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || LOOPBACK_V4.test(hostname);

/** The endpoint normalised (lower-case host, no default port or trailing slash); throws naming `field`. */
export const checkModelEndpoint = (raw: string, field: string): string => {
  const text = raw.trim();
  if (text.length > MAX_URL) throw invalid(field, `is too long (at most ${MAX_URL} characters)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(field, "is not an absolute URL, such as https://api.example.com/v1");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalid(field, `must be an http or https URL (got ${url.protocol})`);
  if (url.username !== "" || url.password !== "")
    throw invalid(field, "must not carry a user name or password; set the key as the API key");
  if (url.search !== "" || url.hash !== "")
    throw invalid(field, "must not carry a query or a fragment");
  if (ENCODED_SEPARATOR.test(url.pathname))
    throw invalid(field, "must not contain a percent-encoded /, \\ or . in its path");
  const hostname = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === "" || hostname.endsWith(".")) throw invalid(field, "has no valid host name");
  if (url.protocol === "http:" && !isLoopback(hostname))
    throw invalid(
      field,
      "must use https: plain http only on loopback (127.0.0.0/8, ::1, localhost)",
    );
  const port = url.port === "" ? "" : `:${url.port}`;
  return `${url.protocol}//${hostname}${port}${url.pathname.replace(/\/+$/, "")}`;
};

/** The key less surrounding blanks, and its last four characters, the one part ever shown again. */
export const checkModelKey = (raw: string, field = "apiKey") => {
  const key = raw.trim();
  if (key.length < MIN_KEY || key.length > MAX_KEY)
    throw invalid(field, `must be ${MIN_KEY} to ${MAX_KEY} characters long`);
  if (!KEY_TEXT.test(key))
    throw invalid(field, "must be one line of printable characters without spaces");
  return { key, hint: key.slice(-4) };
};

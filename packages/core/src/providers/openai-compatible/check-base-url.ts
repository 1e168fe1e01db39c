/**
 * Decides whether an openai_compatible step may call the model endpoint its `options.base_url`
 * names: the worker calls the model itself with the team's key, so the URL must fall under
 * one of the team's allowed endpoints (the same origin, and the same path or one below it).
 * Both sides are compared after WHATWG URL normalisation (case, default port, `.` and `..`
 * segments, numeric IPv4 forms) and without a host's trailing dot, so another spelling of an
 * endpoint neither widens nor narrows the list. Refused outright: a user name or password,
 * a query or fragment, percent-encoded `/`, `\` or `.` in the path (a server that decodes
 * them could climb out of the prefix), and plain http anywhere but loopback.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";

export type CheckedBaseUrl = { ok: true; url: string } | { ok: false; error: AppError };

type Endpoint = { origin: string; path: string; loopback: boolean; secure: boolean };

const LOCATION = { path: "options.base_url" };
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const ENCODED_SEPARATOR = /%(2f|5c|2e)/i;

const isLoopback = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || LOOPBACK_V4.test(hostname);

/** The normalised endpoint, or why the text is not one. */
const parseEndpoint = (raw: string): Endpoint | string => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "is not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `must be an https URL (got ${url.protocol})`;
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (url.search !== "" || url.hash !== "") return "must not carry a query or a fragment";
  if (ENCODED_SEPARATOR.test(url.pathname))
    return "must not contain a percent-encoded /, \\ or . in its path";
  const hostname = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === "" || hostname.endsWith(".")) return "has no valid host name";
  const origin = `${url.protocol}//${hostname}${url.port === "" ? "" : `:${url.port}`}`;
  return {
    origin,
    path: url.pathname.replace(/\/+$/, ""),
    loopback: isLoopback(hostname),
    secure: url.protocol === "https:",
  };
};

const under = (candidate: Endpoint, allowed: Endpoint) =>
  candidate.origin === allowed.origin &&
  (allowed.path === "" ||
    candidate.path === allowed.path ||
    candidate.path.startsWith(`${allowed.path}/`));

const refuse = (message: string): CheckedBaseUrl => ({
  ok: false,
  error: new AppError(CODES.ENDPOINT_NOT_ALLOWED, message, { location: LOCATION }),
});

/**
 * Checks `baseUrl` against the team's allowed endpoints; on success `url` is the normalised
 * base (no trailing slash) to append `/chat/completions` to. Entries of `allowed` that are
 * not valid endpoints themselves never match. Messages never repeat a user name, password
 * or query of the given URL.
 */
export const checkBaseUrl = (baseUrl: unknown, allowed: readonly string[]): CheckedBaseUrl => {
  if (typeof baseUrl !== "string" || baseUrl.trim() === "")
    return refuse("options.base_url is required for openai_compatible (the model endpoint's URL)");
  const candidate = parseEndpoint(baseUrl);
  if (typeof candidate === "string") return refuse(`options.base_url ${candidate}`);
  const shown = `${candidate.origin}${candidate.path}`;
  if (!candidate.secure && !candidate.loopback)
    return refuse(
      `options.base_url ${shown}: plain http is allowed only on loopback (127.0.0.0/8, ::1, localhost); use https`,
    );
  const endpoints = allowed.map(parseEndpoint).filter((e): e is Endpoint => typeof e !== "string");
  if (endpoints.some((e) => under(candidate, e))) return { ok: true, url: shown };
  const list = endpoints.map((e) => `${e.origin}${e.path || "/"}`).join(", ");
  return refuse(
    endpoints.length === 0
      ? `options.base_url ${shown}: the team allows no model endpoints`
      : `options.base_url ${shown} is not one of the team's allowed model endpoints (${list})`,
  );
};

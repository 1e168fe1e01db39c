/**
 * The rule every request Switchyard makes on a user's behalf obeys: https to public
 * addresses, and nothing else unless the operator's allow-list (SWITCHYARD_EGRESS_ALLOW:
 * CIDRs, addresses and host names, `*.` for a domain's hosts) names the destination. A
 * destination it names may be reached at any address and over plain http too. The rule is
 * applied to the address actually connected to (see egress-fetch.ts), so a name that
 * resolves elsewhere the second time (DNS rebinding) gains nothing.
 */
import { isIP } from "node:net";
import { AppError } from "../errors";
import { addressBytes, classifyAddress, inPrefix, type AddressClass } from "./address-class";

type Cidr = { family: 4 | 6; bytes: number[]; bits: number };
type HostRule = { name: string; wildcard: boolean };

/** A parsed SWITCHYARD_EGRESS_ALLOW. */
export type EgressAllowList = {
  cidrs: Cidr[];
  hosts: HostRule[];
  text: string;
  /** Every destination is named: no rule at all (a person's own machine). */
  anywhere?: boolean;
};

/** An allow-list that names nothing: only https to public addresses. */
export const NO_EGRESS_EXCEPTIONS: EgressAllowList = { cidrs: [], hosts: [], text: "" };

/**
 * A list that names every destination, for `switchyard run` on a person's own machine, whose
 * requests go where the person's own could (loopback and plain http included); the fetch
 * keeps its timeouts and size caps.
 */
export const ANY_DESTINATION: EgressAllowList = { cidrs: [], hosts: [], text: "*", anywhere: true };

const HOST_NAME =
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const parseEntry = (entry: string): Cidr | HostRule => {
  const [raw = "", prefix, extra] = entry.split("/");
  const address = raw.replace(/^\[|\]$/g, "");
  const parsed = addressBytes(address);
  if (parsed && extra === undefined) {
    if (isIP(address) === 6 && parsed.family === 4)
      throw new Error(`"${entry}" holds an IPv4 address: write it in IPv4 form`);
    const max = parsed.family === 4 ? 32 : 128;
    const bits = prefix === undefined ? max : Number(prefix);
    if (!/^\d{1,3}$/.test(prefix ?? "0") || bits > max)
      throw new Error(`"${entry}" has a prefix length out of range (0 to ${max})`);
    return { family: parsed.family, bytes: parsed.bytes, bits };
  }
  const name = entry.toLowerCase().replace(/\.$/, "");
  if (prefix !== undefined || !HOST_NAME.test(name))
    throw new Error(`"${entry}" is neither an address, a CIDR nor a host name`);
  return name.startsWith("*.")
    ? { name: name.slice(2), wildcard: true }
    : { name, wildcard: false };
};

/**
 * Parses the allow-list (comma or white space separated). Throws an Error naming the bad
 * entry, for the apps' environment schemas to report with the variable's name.
 */
export const parseEgressAllowList = (text: string): EgressAllowList => {
  const list: EgressAllowList = { cidrs: [], hosts: [], text: text.trim() };
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const rule = parseEntry(entry);
    if ("bits" in rule) list.cidrs.push(rule);
    else list.hosts.push(rule);
  }
  return list;
};

const bareHost = (hostname: string) =>
  hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

/** Whether the allow-list names this host (exactly, or under a `*.` domain). */
export const hostNamed = (list: EgressAllowList, hostname: string) => {
  if (list.anywhere) return true;
  const host = bareHost(hostname);
  return list.hosts.some((h) => host === h.name || (h.wildcard && host.endsWith(`.${h.name}`)));
};

/** Whether an address falls in one of the allow-list's CIDRs. */
export const addressListed = (list: EgressAllowList, address: string) => {
  const parsed = addressBytes(bareHost(address));
  return (
    !!parsed &&
    list.cidrs.some((c) => c.family === parsed.family && inPrefix(parsed.bytes, c.bytes, c.bits))
  );
};

const CLASS_WORDS: Record<Exclude<AddressClass, "public">, string> = {
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private network address",
  "link-local": "a link-local address (cloud metadata services live there)",
  cgnat: "a carrier-grade NAT address",
  "unique-local": "a unique-local IPv6 address",
  multicast: "a multicast address",
  reserved: "a reserved address",
};

const ASK = "an operator can allow it in SWITCHYARD_EGRESS_ALLOW";

/** The refusal for a destination; names the host, and an address only when the host was one. */
export const egressDenied = (host: string, why: string, details: Record<string, string> = {}) =>
  new AppError("USER.EGRESS.DENIED", `Switchyard does not send requests to ${host}: ${why}`, {
    details: { host, ...details },
  });

/**
 * Judges one connection: `hostname` as the URL gave it, `address` the IP about to be
 * connected to. Undefined when allowed, else the refusal.
 */
export const judgeConnection = (
  list: EgressAllowList,
  target: { hostname: string; address: string; protocol: string },
): AppError | undefined => {
  const host = bareHost(target.hostname);
  if (hostNamed(list, host) || addressListed(list, target.address)) return undefined;
  const literal = isIP(host) !== 0;
  const kind = classifyAddress(target.address);
  if (kind !== "public")
    return egressDenied(
      host,
      `${literal ? "it is" : "it resolves to"} ${CLASS_WORDS[kind]}; ${ASK}`,
      { reason: kind },
    );
  if (target.protocol !== "https:")
    return egressDenied(
      host,
      `plain http is allowed only to hosts the operator lists; use https, or ${ASK}`,
      { reason: "plain-http" },
    );
  return undefined;
};

/**
 * Checks what can be checked of a URL before any lookup: http(s) only, no user name or
 * password in it, and a literal address judged at once. Returns the parsed URL.
 */
export const checkEgressUrl = (list: EgressAllowList, input: string | URL): URL => {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new AppError("USER.EGRESS.DENIED", "not a valid URL", {
      details: { reason: "invalid-url" },
    });
  }
  const host = bareHost(url.hostname);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw egressDenied(
      host || url.protocol,
      `only https URLs are fetched (this one is ${url.protocol.replace(/:$/, "")})`,
      { reason: "scheme" },
    );
  if (url.username || url.password)
    throw egressDenied(
      host,
      "a URL with a user name or password in it is not fetched; give credentials another way",
      { reason: "userinfo" },
    );
  if (isIP(host)) {
    const refused = judgeConnection(list, {
      hostname: host,
      address: host,
      protocol: url.protocol,
    });
    if (refused) throw refused;
  } else if (url.protocol === "http:" && !hostNamed(list, host)) {
    // Plain http goes to a name only where the list names it (an address in one of its CIDRs
    // may be written as itself).
    throw egressDenied(
      host,
      `plain http is allowed only to hosts the operator lists; use https, or ${ASK}`,
      { reason: "plain-http" },
    );
  }
  return url;
};

/** checkEgressUrl for a URL a person gave in a field: a refusal names the field (`url`). */
export const checkEgressUrlAt = (
  list: EgressAllowList,
  input: string | URL,
  field = "url",
): URL => {
  try {
    return checkEgressUrl(list, input);
  } catch (error) {
    if (error instanceof AppError)
      throw new AppError(error.code, error.message, {
        location: { path: field },
        details: error.details,
      });
    throw error;
  }
};

/**
 * The egress rule at connect time: a DNS lookup for `net.connect` / `tls.connect` (and so for
 * node:http agents and undici connectors) that answers only addresses the rule allows for
 * this protocol, and a check for hosts given as literal addresses, which Node connects to
 * without a lookup. Judging the address actually connected to leaves no window between a
 * check and the connection for a name to resolve elsewhere.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import type { AppError } from "../errors";
import { judgeConnection, type EgressAllowList } from "./egress-policy";

/** Every address of a name (the system resolver by default; tests pass their own). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/** Every address the system resolver gives for a host name. */
export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
/** The shape `net.connect`'s `lookup` option has. */
type ConnectLookup = (
  hostname: string,
  options: { all?: boolean },
  callback: LookupCallback,
) => void;

const notFound = (hostname: string) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });

/**
 * A lookup that drops the addresses the rule refuses for `protocol` and fails with the
 * first refusal when none is left.
 */
export const egressLookup =
  (
    list: EgressAllowList,
    protocol: string,
    resolveAll: ResolveAll = systemResolveAll,
  ): ConnectLookup =>
  (hostname, options, callback) => {
    resolveAll(hostname).then(
      (found) => {
        let refusal: AppError | undefined;
        const allowed = found.filter((a) => {
          const refused = judgeConnection(list, { hostname, address: a.address, protocol });
          refusal ??= refused;
          return !refused;
        });
        const first = allowed[0];
        if (!first) return callback(refusal ?? notFound(hostname), "");
        if (options.all) return callback(null, allowed);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };

/** The refusal for a host given as a literal address, or undefined (names are judged by the lookup). */
export const literalRefusal = (list: EgressAllowList, hostname: string, protocol: string) => {
  const host = hostname.replace(/^\[|\]$/g, "");
  return isIP(host)
    ? judgeConnection(list, { hostname: host, address: host, protocol })
    : undefined;
};

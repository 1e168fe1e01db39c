/** The egress rule and the one fetch for requests made on a user's behalf. */
export { classifyAddress, type AddressClass } from "./address-class";
export {
  createEgressFetch,
  type EgressFetch,
  type EgressLimits,
  type FetchLike,
} from "./egress-fetch";
export { egressLookup, literalRefusal, systemResolveAll, type ResolveAll } from "./egress-lookup";
export {
  ANY_DESTINATION,
  checkEgressUrl,
  checkEgressUrlAt,
  judgeConnection,
  NO_EGRESS_EXCEPTIONS,
  parseEgressAllowList,
  type EgressAllowList,
} from "./egress-policy";
export { EGRESS_PROFILES, type EgressProfile } from "./egress-profiles";

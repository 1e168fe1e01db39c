/**
 * The web app's requests on a user's behalf: OAuth discovery, registration and the code
 * exchange when a connector is connected. They go through the egress fetch (undici's own,
 * never Next.js's patched global fetch) under the operator's SWITCHYARD_EGRESS_ALLOW; the
 * same list checks destinations people save (notification endpoints, connector URLs,
 * model endpoints) before anything is stored.
 */
import {
  createEgressFetch,
  EGRESS_PROFILES,
  NO_EGRESS_EXCEPTIONS,
  type EgressAllowList,
  type FetchLike,
} from "@switchyard/core/egress";

export type WebEgress = { allow: EgressAllowList; oauth: FetchLike };

export const webEgress = (allow: EgressAllowList): WebEgress => ({
  allow,
  oauth: createEgressFetch(allow, EGRESS_PROFILES.oauth),
});

let strict: WebEgress | undefined;

/** The egress a caller gave, else the rule with no exceptions (public https only). */
export const egressOr = (given: (() => WebEgress) | undefined): WebEgress =>
  given?.() ?? (strict ??= webEgress(NO_EGRESS_EXCEPTIONS));

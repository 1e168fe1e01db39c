/**
 * Egress fetches for tests whose servers listen on loopback: the egress rule with an
 * operator's allow-list that names loopback, said explicitly by every test that needs it.
 */
import {
  createEgressFetch,
  EGRESS_PROFILES,
  parseEgressAllowList,
  type EgressProfile,
} from "@switchyard/core/egress";

/** The allow-list a worker or web app under test gets when its test's servers are on loopback. */
export const LOOPBACK_EGRESS_ALLOW = "127.0.0.0/8,::1,localhost";

/** A fetch of `profile`'s limits that may reach loopback (and public https). */
export const loopbackEgressFetch = (profile: EgressProfile = "oauth") =>
  createEgressFetch(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW), EGRESS_PROFILES[profile]);

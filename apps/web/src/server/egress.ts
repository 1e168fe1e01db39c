/**
 * The web app's requests on a user's behalf: OAuth discovery, registration and the code
 * exchange when a connector is connected, and workflow pack releases from GitHub. They go through the egress fetch (undici's own,
 * never Next.js's patched global fetch) under the operator's SWITCHYARD_EGRESS_ALLOW; the
 * same list checks destinations people save (notification endpoints, connector URLs,
 * model endpoints) before anything is stored.
 */
import {
  createEgressFetch,
  EGRESS_PROFILES,
  NO_EGRESS_EXCEPTIONS,
  type EgressAllowList,
  type EgressLimits,
  type FetchLike,
} from "@switchyard/core/egress";

/** A workflow pack's release: the GitHub API's answers, the archive (5 MB at most) and its checksums. */
const PACK_RELEASE: EgressLimits = {
  connectMs: 10_000,
  headersMs: 15_000,
  idleMs: 15_000,
  totalMs: 60_000,
  maxBytes: 6 * 1024 * 1024,
  maxRedirects: 5,
};

export type WebEgress = {
  allow: EgressAllowList;
  oauth: FetchLike;
  /** workflow pack releases, from the GitHub API at `githubApiUrl` (SWITCHYARD_GITHUB_API_URL) */
  pack: FetchLike;
  githubApiUrl: string;
  /** folders under which a linked git repository may be a local path (SWITCHYARD_GIT_LOCAL_ROOTS); none when unset */
  gitLocalRoots?: readonly string[];
};

export const webEgress = (
  allow: EgressAllowList,
  githubApiUrl = "https://api.github.com",
  gitLocalRoots: readonly string[] = [],
): WebEgress => ({
  allow,
  oauth: createEgressFetch(allow, EGRESS_PROFILES.oauth),
  pack: createEgressFetch(allow, PACK_RELEASE),
  githubApiUrl,
  gitLocalRoots,
});

let strict: WebEgress | undefined;

/** The egress a caller gave, else the rule with no exceptions (public https only). */
export const egressOr = (given: (() => WebEgress) | undefined): WebEgress =>
  given?.() ?? (strict ??= webEgress(NO_EGRESS_EXCEPTIONS));

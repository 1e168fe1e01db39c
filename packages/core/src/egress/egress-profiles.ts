/**
 * The limits of each kind of request made on a user's behalf, in one place. OAuth and
 * notifications are short exchanges with small answers; a connector's streams and a model's
 * answers last as long as their call, which the connector host and the provider bound.
 */
import type { EgressLimits } from "./egress-fetch";

export const EGRESS_PROFILES = {
  /** discovery, registration, the code exchange and refreshes */
  oauth: {
    connectMs: 5_000,
    headersMs: 10_000,
    idleMs: 10_000,
    totalMs: 20_000,
    maxBytes: 1024 * 1024,
    maxRedirects: 3,
  },
  /** an http connector's requests and event streams; its calls are timed by the connector host */
  connector: {
    connectMs: 10_000,
    headersMs: 0,
    idleMs: 0,
    maxBytes: 64 * 1024 * 1024,
    maxRedirects: 3,
  },
  /** a run's end POSTed to a team's endpoint: a 2xx within ten seconds or a retry later */
  notification: {
    connectMs: 5_000,
    headersMs: 10_000,
    idleMs: 10_000,
    totalMs: 10_000,
    maxBytes: 64 * 1024,
    maxRedirects: 0,
  },
  /**
   * a workflow's operation state (http.request, the GitHub API): the operation times the
   * request and reads at most what it keeps (http.request truncates at 1 MB)
   */
  operation: { connectMs: 10_000, headersMs: 0, idleMs: 0, maxRedirects: 5 },
  /** an openai_compatible model's turn; the provider times the request and caps the answer */
  model: { connectMs: 10_000, headersMs: 0, idleMs: 0, maxRedirects: 0 },
} as const satisfies Record<string, EgressLimits>;

export type EgressProfile = keyof typeof EGRESS_PROFILES;

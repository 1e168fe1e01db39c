/**
 * Which live steps must learn a connector grant's new tokens. Steps that use the same
 * grant share one pooled connection, whose token is refreshed by whichever step's token
 * source the pool holds, during any of their calls: every step still running with that
 * grant must scrub the new token from what it stores and streams. Each step joins the
 * grants it opens and leaves them when it ends; the latest tokens of a grant reach every
 * scrubber that joined it. A grant's latest tokens are kept for the steps that join later:
 * a token obtained for one run (a client credentials token the worker holds until it
 * expires) is used by the next, whose scrubber must know it from its start.
 */
import type { Scrubber } from "@switchyard/core/secrets";

export type GrantScrubbers = {
  /** `scrubber` learns every later token of the grant (its credential row id) until the returned leave is called. */
  join: (grant: string, scrubber: Scrubber) => () => void;
  /** New secrets of the grant: every joined scrubber learns them. */
  learn: (grant: string, secrets: readonly string[]) => void;
};

/** How many grants' latest tokens are kept; the least recently learned go first. */
const MAX_REMEMBERED = 1024;

export const grantScrubbers = (): GrantScrubbers => {
  // One entry per joining step, so two steps of one run (one scrubber) leave independently.
  const live = new Map<string, Set<{ scrubber: Scrubber }>>();
  const latest = new Map<string, readonly string[]>();
  return {
    join: (grant, scrubber) => {
      for (const secret of latest.get(grant) ?? []) scrubber.add(secret);
      const entry = { scrubber };
      const joined = live.get(grant) ?? new Set();
      joined.add(entry);
      live.set(grant, joined);
      return () => {
        joined.delete(entry);
        if (joined.size === 0 && live.get(grant) === joined) live.delete(grant);
      };
    },
    learn: (grant, secrets) => {
      latest.delete(grant);
      if (latest.size >= MAX_REMEMBERED) latest.delete(latest.keys().next().value!);
      latest.set(grant, secrets);
      for (const { scrubber } of live.get(grant) ?? [])
        for (const secret of secrets) scrubber.add(secret);
    },
  };
};

/**
 * The step whose session a recorded attempt resumed (`continue_from`), if it did. A replay
 * refuses such an attempt: the session belongs to the source run (a later run of that step
 * may have replaced it), and run without it the agent would answer with none of its turns.
 * No imports, so the web app reads it without the engine's types.
 */
export const continuedFrom = (record: unknown): string | undefined => {
  const from = (record as { continueFrom?: unknown } | null)?.continueFrom;
  return typeof from === "string" && from !== "" ? from : undefined;
};

/** Why a replay of an attempt that resumed `state`'s session is refused. */
export const continuedRefusal = (state: string) =>
  `it resumed the session of "${state}" (continue_from), which a replay cannot restore`;

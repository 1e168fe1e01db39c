/**
 * A run's chats for its page: its `message` waits grouped by the step they belong to (its
 * state and path), not by the attempt row that opened them. A chat whose worker was killed
 * goes on in a new attempt row and is still one chat; a turn 1 starts another (the step
 * retried, or run again in a loop).
 */
type MessageWait = {
  id: string;
  kind: string;
  stepRunId: string | null;
  createdAt: Date | string;
  detail: unknown;
};
type StepRow = {
  id: string;
  stateName: string;
  path?: unknown;
  conversation?: { stopped_by?: string | undefined } | null | undefined;
};

export type Chat<W> = {
  /** its waits, oldest first, across the attempts it went on in */
  waits: W[];
  /** how it stopped (AWF's stopped_by), once it ended */
  stoppedBy?: string;
};

const turnOf = (wait: MessageWait) =>
  wait.detail && typeof wait.detail === "object"
    ? (wait.detail as { turn?: number }).turn
    : undefined;

export const chatsOf = <W extends MessageWait>(waits: W[], steps: StepRow[]): Chat<W>[] => {
  const placeOf = (step: StepRow) => `${step.stateName}\u0000${JSON.stringify(step.path ?? null)}`;
  const byPlace = new Map<string, Chat<W>[]>();
  const messages = waits
    .filter((w) => w.kind === "message")
    .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
  for (const wait of messages) {
    const step = steps.find((s) => s.id === wait.stepRunId);
    const place = step ? placeOf(step) : wait.id;
    const chats = byPlace.get(place) ?? [];
    const current = chats.at(-1);
    if (!current || turnOf(wait) === 1) chats.push({ waits: [wait] });
    else current.waits.push(wait);
    byPlace.set(place, chats);
  }
  const chats = [...byPlace.values()].flat();
  for (const chat of chats) {
    // Its end is on the attempt that ended it: the one of its last wait, or a later one at
    // the same place (a worker killed after the last message ends it in a new row).
    const last = steps.findIndex((s) => s.id === chat.waits.at(-1)!.stepRunId);
    if (last < 0) continue;
    const place = placeOf(steps[last]!);
    const ended = steps
      .slice(last)
      .find((s) => placeOf(s) === place && s.conversation?.stopped_by !== undefined);
    if (ended?.conversation?.stopped_by) chat.stoppedBy = ended.conversation.stopped_by;
  }
  return chats;
};

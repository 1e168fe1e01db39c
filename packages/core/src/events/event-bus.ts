/**
 * A small typed event bus: subscribers by event name, called in the order they subscribed.
 * `emit` never throws: a subscriber that throws or rejects is its own to report. It returns
 * a promise that settles once every promise the subscribers returned has settled, so an
 * emitter can wait for the side effect (the step channel answers a tool call only once its
 * record is stored) or go on without it.
 */
type EventMap = Record<string, unknown>;

export type EventEmitter<E extends EventMap> = {
  emit: <K extends keyof E & string>(name: K, payload: E[K]) => Promise<void>;
};

export type EventBus<E extends EventMap> = EventEmitter<E> & {
  /** Calls `fn` with each payload emitted under `name` from now on; returns what unsubscribes it. */
  subscribe: <K extends keyof E & string>(name: K, fn: (payload: E[K]) => unknown) => () => void;
};

const SETTLED = Promise.resolve();

/** A typed in-process event bus. */
export const createEventBus = <E extends EventMap>(): EventBus<E> => {
  const subscribers = new Map<keyof E, Set<(payload: never) => unknown>>();
  return {
    subscribe: (name, fn) => {
      let set = subscribers.get(name);
      if (!set) subscribers.set(name, (set = new Set()));
      // A wrapper of its own, so subscribing one function twice calls it twice.
      const entry = (payload: never) => fn(payload);
      set.add(entry);
      return () => void set.delete(entry);
    },
    emit: (name, payload) => {
      let pending: Promise<unknown>[] | undefined;
      for (const fn of subscribers.get(name) ?? []) {
        try {
          const returned = (fn as (payload: unknown) => unknown)(payload);
          if (returned instanceof Promise) (pending ??= []).push(returned);
        } catch {
          // The subscriber reports its own failure.
        }
      }
      return pending ? Promise.allSettled(pending).then(() => undefined) : SETTLED;
    },
  };
};

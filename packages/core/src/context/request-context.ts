/**
 * The id of the request being served, for whatever it writes (audit entries) and answers
 * (the `x-request-id` header): the caller's own `x-request-id` when it is a sane token, else
 * a fresh one. Held in async context, so code deep in an operation needs no parameter.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

const store = new AsyncLocalStorage<string>();
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when sane, else a new one. */
export const requestIdOf = (headers: Headers) => {
  const given = headers.get("x-request-id");
  return given && SANE.test(given) ? given : randomUUID();
};

/** Runs `run` with `id` as the current request id. */
export const withRequestId = <T>(id: string, run: () => T): T => store.run(id, run);

/** The id of the request being served, or undefined outside one (the worker, a script). */
export const currentRequestId = (): string | undefined => store.getStore();

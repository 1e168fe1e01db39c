/**
 * An area's REST routes, derived from its declared operations: the input is the parsed body
 * or query with the path's parameters over it, the least role is checked before the handler
 * runs, and the answer is the handler's result (wrapped where the operation says) with the
 * declared status.
 */
import { z } from "zod";
import type { OneSurface, OperationSpec, RestSpec } from "../contract/operation";
import { requireRole } from "../trpc/init";
import { parse, reply, sealingKeyring, type RestDeps, type Route } from "../rest/route-kit";
import { AppError } from "@switchyard/core/errors";
import type { HandlerContext, ImplementedArea, Services } from "./implement";

/** Query parameters as one object: a repeated one is joined with commas, or the last one counts. */
const queryObject = (query: URLSearchParams, joinRepeated: boolean) => () =>
  Promise.resolve(
    joinRepeated
      ? Object.fromEntries(
          [...new Set(query.keys())].map((key) => [key, query.getAll(key).join(",")]),
        )
      : Object.fromEntries(query),
  );

const servicesOf = (deps: RestDeps): Services => ({
  db: deps.db,
  queue: deps.queue,
  prefix: deps.prefix,
  publish: deps.publish,
  keyring: () => sealingKeyring(deps),
  redis: () => {
    if (!deps.redis) throw new AppError("SYSTEM.CONFIG", "this server has no Redis connection");
    return deps.redis();
  },
  ...(deps.egress ? { egress: deps.egress } : {}),
});

const isRest = (rest: RestSpec | OneSurface): rest is RestSpec => "method" in rest;

type AnyHandler = (ctx: HandlerContext<OperationSpec>) => unknown;

/** The operation's REST route: what the dispatcher serves and the OpenAPI document shows. */
const routeOf = (
  spec: OperationSpec & { rest: RestSpec },
  handler: (ctx: HandlerContext<OperationSpec>, input: unknown) => unknown,
  guard?: AnyHandler,
): Route => {
  const { rest } = spec;
  const names = [...rest.path.matchAll(/\{([^}]+)\}/g)].map((m) => rest.params?.[m[1]!] ?? m[1]!);
  return {
    method: rest.method,
    path: rest.path,
    summary: rest.summary,
    status: rest.status,
    description: rest.description,
    response: rest.response ?? (rest.wrap ? z.object({ [rest.wrap]: spec.output }) : spec.output),
    ...(rest.body ? { body: rest.body } : {}),
    ...(rest.query ? { query: rest.query } : {}),
    ...(rest.otherSuccess ? { otherSuccess: rest.otherSuccess } : {}),
    ...(rest.errors ? { errors: rest.errors } : {}),
    ...(rest.bodyLimit ? { bodyLimit: rest.bodyLimit } : {}),
    ...(rest.mediaType ? { mediaType: rest.mediaType } : {}),
    handler: async ({ deps, caller, reauthenticate, params, query, headers, signal, body }) => {
      const ctx = {
        ...servicesOf(deps),
        caller: caller as never,
        surface: "rest" as const,
        request: { headers, signal, reauthenticate },
      };
      await guard?.(ctx);
      const given = rest.body
        ? await parse(rest.body, body)
        : rest.query
          ? await parse(rest.query, queryObject(query, rest.joinRepeated ?? false))
          : {};
      const path: Record<string, unknown> = Object.fromEntries(
        names.map((name, i) => [name, params[i]!]),
      );
      const fromPath = rest.pathSchema
        ? await parse(rest.pathSchema, () => Promise.resolve(path))
        : path;
      const fields = { ...(given as object), ...fromPath };
      const input = rest.toInput ? rest.toInput(fields) : fields;
      if (spec.role) requireRole(spec.role, caller.role);
      const result = await handler(ctx, input);
      if (result instanceof Response) return result;
      const shown = rest.toAnswer ? rest.toAnswer(result as never) : result;
      return reply(rest.status, rest.wrap ? { [rest.wrap]: shown } : shown);
    },
  };
};

export const restRoutesOf = <A extends Record<string, OperationSpec>>({
  specs,
  handlers,
  restGuards,
}: ImplementedArea<A>): Route[] =>
  Object.entries(specs).flatMap(([name, spec]) => {
    const { rest } = spec;
    if (!isRest(rest)) return [];
    return [
      routeOf(
        { ...spec, rest },
        handlers[name] as (ctx: HandlerContext<OperationSpec>, input: unknown) => unknown,
        restGuards[name] as AnyHandler | undefined,
      ),
    ];
  });

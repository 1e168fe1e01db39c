/**
 * An area's tRPC router, derived from its declared operations: the procedure of its access
 * (public, signed in, in a team), the declared input and output, the least role checked
 * before the handler runs.
 */
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import type { Role } from "@switchyard/core/policy";
import type { OneSurface, OperationSpec } from "../contract/operation";
import {
  authedProcedure,
  publicProcedure,
  requireRole,
  router,
  teamProcedure,
  type TrpcContext,
} from "../trpc/init";
import type { HandlerContext, ImplementedArea } from "./implement";

type ProcedureOf<S extends OperationSpec> = {
  input: S["input"] extends z.ZodType ? z.input<S["input"]> : void;
  output: z.output<S["output"]>;
  meta: object;
};
type RouterRecordOf<A extends Record<string, OperationSpec>> = {
  [K in keyof A as A[K]["trpc"] extends OneSurface ? never : K]: A[K]["kind"] extends "query"
    ? TRPCQueryProcedure<ProcedureOf<A[K]>>
    : TRPCMutationProcedure<ProcedureOf<A[K]>>;
};

const baseOf = (access: OperationSpec["access"]) =>
  access === "team" ? teamProcedure : access === "authed" ? authedProcedure : publicProcedure;

const servicesOf = (ctx: TrpcContext) => ({
  db: ctx.db,
  queue: ctx.queue,
  prefix: ctx.queuePrefix,
  publish: ctx.publish,
  keyring: ctx.keyring,
  redis: ctx.redis,
  ...(ctx.egress ? { egress: ctx.egress } : {}),
});

export const trpcRouterOf = <A extends Record<string, OperationSpec>>({
  specs,
  handlers,
}: ImplementedArea<A>) => {
  const record: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.trpc) continue;
    const handler = handlers[name] as (
      ctx: HandlerContext<OperationSpec>,
      input: unknown,
    ) => unknown;
    const base = baseOf(spec.access);
    const typed = (spec.input ? base.input(spec.input) : base).output(spec.output);
    const resolve = async ({
      ctx,
      input,
    }: {
      ctx: TrpcContext & { role?: Role };
      input: unknown;
    }) => {
      if (spec.role) requireRole(spec.role, ctx.role ?? "viewer");
      const caller = spec.access === "public" ? undefined : ctx;
      return handler({ ...servicesOf(ctx), caller: caller as never, surface: "trpc" }, input);
    };
    record[name] = spec.kind === "query" ? typed.query(resolve) : typed.mutation(resolve);
  }
  return router(record as never) as unknown as ReturnType<typeof router<RouterRecordOf<A>>>;
};

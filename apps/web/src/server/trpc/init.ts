/**
 * tRPC setup: the request context (session, active team and role), the error formatter
 * that turns AppError into a code and a user message, and the procedure builders.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { AppError, surfaceOfError } from "@switchyard/core/errors";
import { assertStorableText } from "../http/storable-text";
import { roleAtLeast } from "@switchyard/core/policy";
import { findMembership, membershipsOf, type Db, type Role } from "@switchyard/db";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import type { WebEgress } from "../egress";

export type TrpcContext = {
  db: Db;
  queue: () => Queue<RunJob>;
  queuePrefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
  redis: () => Redis;
  keyring: () => Keyring;
  /** requests on a user's behalf (OAuth); the rule with no exceptions when unset */
  egress?: () => WebEgress;
  userId: string | undefined;
  /** the team the session acts in (chosen in the dashboard header); the user's first team when unset */
  teamId: string | undefined;
  /** the membership of `userId` in `teamId` as this request's session check read it */
  membership?: Membership;
};

type Membership = NonNullable<Awaited<ReturnType<typeof findMembership>>>;

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter: ({ shape, error }) => {
    const app = error.cause instanceof AppError ? error.cause : undefined;
    // An unexpected failure (a database error, say) says what went wrong only in the log.
    const internal = !app && error.code === "INTERNAL_SERVER_ERROR";
    if (internal) console.error("switchyard-web: procedure failed", error.cause ?? error);
    return {
      ...shape,
      message: app
        ? app.userMessage
        : internal
          ? "something went wrong on the server"
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: app ? app.httpStatus : shape.data.httpStatus,
        appCode: app?.code ?? null,
        location: app?.location ?? null,
        details: app?.details ?? null,
        zodIssues:
          error.code === "BAD_REQUEST" && !app
            ? ((error.cause as { issues?: unknown })?.issues ?? null)
            : null,
      },
    };
  },
});

/** Rethrows an AppError as a TRPCError with the mapped code, keeping it as the cause. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const app = result.error.cause;
    throw new TRPCError({ code: surfaceOfError(app).trpc, message: app.userMessage, cause: app });
  }
  return result;
});

/** Input with text the database cannot store (NUL, a lone surrogate) is refused before any procedure reads it. */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  assertStorableText(await getRawInput(), "input");
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  return next({ ctx: { ...ctx, userId: ctx.userId } });
});

/**
 * Acts in the session's team; the membership is read on every request (by the session's
 * check, or here), so a removed member is refused at once.
 */
export const teamProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const checked =
    ctx.membership?.userId === ctx.userId && ctx.membership.teamId === ctx.teamId
      ? ctx.membership
      : undefined;
  const membership =
    checked ??
    (ctx.teamId
      ? await findMembership(ctx.db, ctx.userId, { teamId: ctx.teamId })
      : (await membershipsOf(ctx.db, ctx.userId))[0]);
  if (!membership)
    throw new TRPCError({ code: "FORBIDDEN", message: "you are not a member of this team" });
  return next({
    ctx: { ...ctx, teamId: membership.teamId, team: membership.team, role: membership.role },
  });
});

export const requireRole = (role: Role, actual: Role) => {
  if (!roleAtLeast(actual, role)) throw new AppError("FORBIDDEN", `this needs the ${role} role`);
};

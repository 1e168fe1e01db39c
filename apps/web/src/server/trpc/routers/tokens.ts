import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { createApiToken, listApiTokens, revokeApiToken } from "@switchyard/db";
import { router, teamProcedure } from "../init";

/** The signed-in member's own API tokens for the REST API; a token's secret is shown once. */
export const tokensRouter = router({
  list: teamProcedure.query(({ ctx }) => listApiTokens(ctx.db, ctx.teamId, ctx.userId)),
  create: teamProcedure
    .input(z.object({ name: z.string().trim().min(1).max(80), expiresInDays: z.number().int().min(1).max(365).optional() }))
    .mutation(async ({ ctx, input }) => {
      const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : undefined;
      const created = await createApiToken(ctx.db, { teamId: ctx.teamId, userId: ctx.userId, name: input.name, expiresAt });
      await ctx.db.auditLog.create({
        data: { teamId: ctx.teamId, actorUserId: ctx.userId, action: "api_token.create", targetType: "api_token", targetId: created.id, metadata: { prefix: created.prefix } },
      });
      return created;
    }),
  revoke: teamProcedure.input(z.object({ id: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    const { count } = await revokeApiToken(ctx.db, ctx.teamId, ctx.userId, input.id);
    if (count === 0) throw new AppError("NOT_FOUND", "token not found");
    await ctx.db.auditLog.create({
      data: { teamId: ctx.teamId, actorUserId: ctx.userId, action: "api_token.revoke", targetType: "api_token", targetId: input.id },
    });
    return { id: input.id };
  }),
});

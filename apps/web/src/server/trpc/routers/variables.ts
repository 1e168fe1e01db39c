import { z } from "zod";
import { deleteVariable, listVariables, setVariable } from "@switchyard/db";
import { requireRole, router, teamProcedure } from "../init";

export const variablesRouter = router({
  /** Names and plain values; a secret's value is never returned. */
  list: teamProcedure.query(({ ctx }) => listVariables(ctx.db, ctx.teamId)),
  set: teamProcedure
    .input(z.object({ name: z.string().min(1).max(128), value: z.string().max(65536), secret: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      requireRole("admin", ctx.role);
      await setVariable(ctx.db, ctx.keyring(), { ...input, teamId: ctx.teamId, actorUserId: ctx.userId });
      return { name: input.name, secret: input.secret };
    }),
  delete: teamProcedure.input(z.object({ name: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    requireRole("admin", ctx.role);
    await deleteVariable(ctx.db, { teamId: ctx.teamId, actorUserId: ctx.userId, name: input.name });
    return { name: input.name };
  }),
});

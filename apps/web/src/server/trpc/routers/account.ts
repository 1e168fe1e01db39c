/**
 * The signed-in user's own account. Changing the password ends every session of the user,
 * this one included; wrong current passwords count against the account's sign-in limit.
 */
import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { changePassword, getUser, PASSWORD_MAX_LENGTH } from "@switchyard/db";
import { signInThrottle } from "../../auth/sign-in-throttle";
import { changePasswordResponse } from "../../contract/account.types";
import { authedProcedure, router } from "../init";

export const accountRouter = router({
  changePassword: authedProcedure
    .input(z.object({ currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH), newPassword: z.string().max(PASSWORD_MAX_LENGTH) }))
    .output(changePasswordResponse)
    .mutation(async ({ ctx, input }) => {
      const user = await getUser(ctx.db, ctx.userId);
      if (!user) throw new AppError("UNAUTHORIZED", "sign in first");
      const throttle = signInThrottle(ctx.redis(), ctx.queuePrefix);
      await throttle.attempt(user.email);
      await changePassword(ctx.db, ctx.userId, input.currentPassword, input.newPassword);
      await throttle.succeeded(user.email);
      return { signedOut: true };
    }),
});

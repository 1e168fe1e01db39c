/**
 * What runs the signed-in user's account operations (contract/account.types.ts). Changing
 * the password ends every session of the user; wrong current passwords count against the
 * account's sign-in limit.
 */
import { AppError } from "@switchyard/core/errors";
import { changePassword, getUser } from "@switchyard/db";
import { accountOperations } from "../contract/account.types";
import { implement } from "../api/implement";
import { signInThrottle } from "../auth/sign-in-throttle";

export const accountApi = implement(accountOperations, {
  changePassword: async ({ db, redis, prefix, caller }, input) => {
    const user = await getUser(db, caller.userId);
    if (!user) throw new AppError("UNAUTHORIZED", "sign in first");
    const throttle = signInThrottle(redis(), prefix);
    await throttle.attempt(user.email);
    await changePassword(db, caller.userId, input.currentPassword, input.newPassword);
    await throttle.succeeded(user.email);
    return { signedOut: true as const };
  },
});

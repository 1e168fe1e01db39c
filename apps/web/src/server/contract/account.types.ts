/**
 * The signed-in user's own account: changing the password, which ends every session of the
 * user, this one included; wrong current passwords count against the account's sign-in limit.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "@switchyard/db";
import { operation } from "./operation";

/** Changing the password ends every session of the user, this one included. */
export const changePasswordResponse = z.object({ signedOut: z.literal(true) });

export const accountOperations = {
  changePassword: operation({
    kind: "mutation",
    access: "authed",
    input: z.object({
      currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH),
      newPassword: z.string().max(PASSWORD_MAX_LENGTH),
    }),
    output: changePasswordResponse,
    rest: {
      only: "a password is changed in person, in the dashboard; an API token never changes it",
    },
  }),
};

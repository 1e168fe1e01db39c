/**
 * Response shapes of the signed-in user's account operations, for the tRPC procedures.
 */
import { z } from "zod";

/** Changing the password ends every session of the user, this one included. */
export const changePasswordResponse = z.object({ signedOut: z.literal(true) });

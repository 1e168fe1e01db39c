/**
 * Signing up without an invitation (the sign-up page), while the installation's settings
 * allow it: an account with a password, in no team yet, whose email stays unverified (the
 * person typed it; a link sent there or an issuer that verifies it would show it is
 * theirs). Refused while sign-up needs an invitation, and while passwords are refused in
 * favour of single sign-on. Sign-ups count against the client address's sign-in limit.
 */
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";
import {
  checkNewPassword,
  createUserWithPassword,
  hashPassword,
  readInstanceSettings,
  type Db,
} from "@switchyard/db";
import { oidcConfig } from "../auth/oidc-config";
import { signInThrottle } from "../auth/sign-in-throttle";

export type SignUpDeps = { db: Db; redis?: Redis; prefix?: string };
export type OpenSignUp = { name: string; email: string; password: string; address: string };

export const signUpOpen = async (deps: SignUpDeps, input: OpenSignUp) => {
  const settings = await readInstanceSettings(deps.db);
  if (!settings.openSignUp) {
    throw new AppError(
      "USER.INSTANCE.SIGN_UP_CLOSED",
      "this installation takes new people by invitation only: open the invitation link someone sent you",
    );
  }
  if (settings.ssoOnly && oidcConfig())
    throw new AppError(
      "USER.INSTANCE.SSO_ONLY",
      "this installation signs in through single sign-on only: use its button",
    );
  checkNewPassword(input.password, "password");
  if (deps.redis && deps.prefix)
    await signInThrottle(deps.redis, deps.prefix).attempt(input.email, input.address);
  return createUserWithPassword(deps.db, {
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
  });
};

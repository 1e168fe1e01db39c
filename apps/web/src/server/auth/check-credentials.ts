/**
 * One sign-in attempt: refused outright while the installation signs in through single
 * sign-on only (and an issuer is configured: without one the setting cannot hold, so
 * nobody is locked out), then throttled per account and per client address (shared by
 * every web process through Redis), then the password check, which costs the same for an
 * unknown email as for a wrong password.
 */
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";
import {
  readInstanceSettings,
  verifyPassword,
  type Db,
  type PasswordVerifier,
} from "@switchyard/db";
import { signInThrottle, type SignInLimits } from "./sign-in-throttle";

/** `ssoConfigured`: whether this server has an issuer to sign in through. */
export type CredentialDeps = {
  db: Db;
  redis: Redis;
  prefix: string;
  limits?: SignInLimits;
  verify?: PasswordVerifier;
  ssoConfigured?: boolean;
};

export type Credentials = { email: string; password: string; address: string };

/**
 * The user, or undefined for a wrong email or password; throws RATE_LIMITED after too many
 * failures, and USER.INSTANCE.SSO_ONLY while passwords are refused.
 */
export const checkCredentials = async (deps: CredentialDeps, attempt: Credentials) => {
  if (deps.ssoConfigured && (await readInstanceSettings(deps.db)).ssoOnly) {
    throw new AppError(
      "USER.INSTANCE.SSO_ONLY",
      "this installation signs in through single sign-on only: use the single sign-on button",
    );
  }
  const throttle = signInThrottle(deps.redis, deps.prefix, deps.limits);
  await throttle.attempt(attempt.email, attempt.address);
  const user = await verifyPassword(deps.db, attempt.email, attempt.password, deps.verify);
  if (user) await throttle.succeeded(attempt.email, attempt.address);
  return user;
};

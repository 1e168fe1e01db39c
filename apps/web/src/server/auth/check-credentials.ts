/**
 * One sign-in attempt: throttled per account and per client address (shared by every web
 * process through Redis), then the password check, which costs the same for an unknown
 * email as for a wrong password.
 */
import type { Redis } from "ioredis";
import { verifyPassword, type Db, type PasswordVerifier } from "@switchyard/db";
import { signInThrottle, type SignInLimits } from "./sign-in-throttle";

export type CredentialDeps = { db: Db; redis: Redis; prefix: string; limits?: SignInLimits; verify?: PasswordVerifier };

export type Credentials = { email: string; password: string; address: string };

/** The user, or undefined for a wrong email or password; throws RATE_LIMITED after too many failures. */
export const checkCredentials = async (deps: CredentialDeps, attempt: Credentials) => {
  const throttle = signInThrottle(deps.redis, deps.prefix, deps.limits);
  await throttle.attempt(attempt.email, attempt.address);
  const user = await verifyPassword(deps.db, attempt.email, attempt.password, deps.verify);
  if (user) await throttle.succeeded(attempt.email, attempt.address);
  return user;
};

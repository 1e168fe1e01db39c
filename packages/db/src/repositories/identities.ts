/**
 * Sign-in through an OpenID Connect issuer: a user is found by the issuer and the subject
 * it gives them, never by email alone. On a first sign-in the identity is linked to the
 * user who has the same email only when the issuer says the email is verified (an unverified
 * address is anybody's claim); when nobody has the email, a new user (without a password)
 * is made. The user and the link are made in one transaction.
 */
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";

type OidcClaims = { issuer: string; subject: string; email?: string | null; emailVerified?: boolean | null; name?: string | null };

export const linkOidcSignIn = (db: Db, claims: OidcClaims) =>
  db.$transaction(async (tx) => {
    const email = claims.email?.trim().toLowerCase();
    const known = await tx.userIdentity.findUnique({ where: { issuer_subject: { issuer: claims.issuer, subject: claims.subject } }, select: { userId: true } });
    if (known) {
      // The issuer now vouches for the account's own address.
      if (email && claims.emailVerified === true) await tx.user.updateMany({ where: { id: known.userId, email, emailVerifiedAt: null }, data: { emailVerifiedAt: new Date() } });
      return { userId: known.userId, outcome: "known" as const };
    }
    if (!email) throw new AppError("UNAUTHORIZED", "the sign-in service gave no email address; ask its administrator to release it");
    const existing = await tx.user.findUnique({ where: { email }, select: { id: true } });
    if (existing) {
      if (claims.emailVerified !== true) {
        throw new AppError("FORBIDDEN", "an account with this email exists, and the sign-in service has not verified the address: sign in with your password");
      }
      await tx.userIdentity.create({ data: { userId: existing.id, issuer: claims.issuer, subject: claims.subject } });
      return { userId: existing.id, outcome: "linked" as const };
    }
    const name = claims.name?.trim() || email.split("@")[0]!;
    const user = await tx.user.create({ data: { email, name: name.slice(0, 120), emailVerifiedAt: claims.emailVerified === true ? new Date() : null }, select: { id: true } });
    await tx.userIdentity.create({ data: { userId: user.id, issuer: claims.issuer, subject: claims.subject } });
    return { userId: user.id, outcome: "created" as const };
  });

/** Whether the user has signed in through this issuer (an identity of theirs is linked there). */
export const hasIdentityAt = async (db: Db, userId: string, issuer: string) => (await db.userIdentity.count({ where: { userId, issuer } })) > 0;

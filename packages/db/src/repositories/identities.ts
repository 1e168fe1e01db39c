/**
 * Sign-in through an OpenID Connect issuer: a user is found by the issuer and the subject
 * it gives them, never by email alone. On a first sign-in:
 * - a user with the same email is linked only when the issuer says the email is verified
 *   (an unverified address is anybody's claim). If that account's own email was never
 *   verified (made through an invitation bound to no email, say), anyone could have made
 *   it with this address before its owner came: the verified person takes it over (see
 *   account-claim.ts: password, sessions, tokens and other sign-ins gone).
 * - nobody has the email: a new user (without a password) is made only when the
 *   installation admits them: sign-up is open, they came through an invitation (accepted
 *   in the same transaction: they join its team), or the operator names their verified
 *   email as an instance admin's. Otherwise the sign-in is refused, saying how to get in.
 * Everything a sign-in changes commits in one transaction.
 */
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import { claimUnverifiedAccount } from "./account-claim";
import { acceptInvitationIn } from "./invitations";

type OidcClaims = {
  issuer: string;
  subject: string;
  email?: string | null;
  emailVerified?: boolean | null;
  name?: string | null;
};

/**
 * Who may get a new account by signing in: everyone while `openSignUp`; otherwise whoever
 * holds a usable invitation (`invitationToken`), or signs in with a verified email the
 * operator named (`admittedEmails`, lower-cased).
 */
type Admission = {
  openSignUp: boolean;
  invitationToken?: string;
  admittedEmails?: readonly string[];
};

const CLOSED =
  "this installation takes new people by invitation only: open the invitation link someone sent you and sign in from its page, or ask an instance admin";

export const linkOidcSignIn = (
  db: Db,
  claims: OidcClaims,
  admission: Admission = { openSignUp: false },
) =>
  db.$transaction(async (tx) => {
    const email = claims.email?.trim().toLowerCase();
    const verified = claims.emailVerified === true;
    const known = await tx.userIdentity.findUnique({
      where: { issuer_subject: { issuer: claims.issuer, subject: claims.subject } },
      select: { userId: true },
    });
    if (known) {
      // The issuer now vouches for the account's own address.
      if (email && verified)
        await tx.user.updateMany({
          where: { id: known.userId, email, emailVerifiedAt: null },
          data: { emailVerifiedAt: new Date() },
        });
      return { userId: known.userId, outcome: "known" as const };
    }
    if (!email)
      throw new AppError(
        "UNAUTHORIZED",
        "the sign-in service gave no email address; ask its administrator to release it",
      );
    const existing = await tx.user.findUnique({
      where: { email },
      select: { id: true, emailVerifiedAt: true },
    });
    if (existing) {
      if (!verified) {
        throw new AppError(
          "FORBIDDEN",
          "an account with this email exists, and the sign-in service has not verified the address: sign in with your password",
        );
      }
      if (existing.emailVerifiedAt === null) {
        await claimUnverifiedAccount(tx, existing.id, { issuer: claims.issuer });
        await tx.userIdentity.create({
          data: { userId: existing.id, issuer: claims.issuer, subject: claims.subject },
        });
        return { userId: existing.id, outcome: "claimed" as const };
      }
      await tx.userIdentity.create({
        data: { userId: existing.id, issuer: claims.issuer, subject: claims.subject },
      });
      return { userId: existing.id, outcome: "linked" as const };
    }
    const named = verified && (admission.admittedEmails ?? []).includes(email);
    if (!admission.openSignUp && !admission.invitationToken && !named)
      throw new AppError("USER.INSTANCE.SIGN_UP_CLOSED", CLOSED);
    const name = claims.name?.trim() || email.split("@")[0]!;
    const user = await tx.user.create({
      data: { email, name: name.slice(0, 120), emailVerifiedAt: verified ? new Date() : null },
      select: { id: true, email: true },
    });
    await tx.userIdentity.create({
      data: { userId: user.id, issuer: claims.issuer, subject: claims.subject },
    });
    if (admission.invitationToken) await acceptInvitationIn(tx, admission.invitationToken, user);
    return { userId: user.id, outcome: "created" as const };
  });

/** Whether the user has signed in through this issuer (an identity of theirs is linked there). */
export const hasIdentityAt = async (db: Db, userId: string, issuer: string) =>
  (await db.userIdentity.count({ where: { userId, issuer } })) > 0;

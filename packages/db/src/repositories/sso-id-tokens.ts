/**
 * The sealed ID token of each person's latest sign-in through an issuer (one per identity,
 * replaced at every sign-in): what an enterprise (cross-app access) connector exchanges at
 * the IdP for the member's grant. Nothing here seals or opens; it is read only for a member
 * of the team asking.
 */
import type { Envelope } from "@switchyard/core/crypto";
import type { Db } from "../client";
import { envelopeOf, sealedColumns } from "./sealed-columns";

/**
 * Keeps the ID token of a sign-in for the identity `issuer`/`subject` (linked by then):
 * `seal` seals it for the identity's id. False when no such identity is linked.
 */
export const keepSsoIdToken = async (
  db: Db,
  input: { issuer: string; subject: string; expiresAt: Date | null },
  seal: (identityId: string) => Envelope,
): Promise<boolean> => {
  const identity = await db.userIdentity.findUnique({
    where: { issuer_subject: { issuer: input.issuer, subject: input.subject } },
    select: { id: true },
  });
  if (!identity) return false;
  const data = { ...sealedColumns(seal(identity.id)), expiresAt: input.expiresAt };
  await db.ssoIdToken.upsert({
    where: { identityId: identity.id },
    create: { identityId: identity.id, ...data },
    update: data,
  });
  return true;
};

/**
 * The kept ID token of a member of `teamId` at `issuer` (an issuer URL compared with or
 * without its trailing slash), to be opened; undefined when they are not a member or never
 * signed in there.
 */
export const ssoIdTokenOf = async (
  db: Db,
  input: { teamId: string; userId: string; issuer: string },
) => {
  const bare = input.issuer.replace(/\/$/, "");
  const identity = await db.userIdentity.findFirst({
    where: {
      userId: input.userId,
      issuer: { in: [bare, `${bare}/`] },
      user: { memberships: { some: { teamId: input.teamId } } },
      idToken: { isNot: null },
    },
    orderBy: { idToken: { updatedAt: "desc" } },
    select: { id: true, issuer: true, idToken: true },
  });
  if (!identity?.idToken) return undefined;
  return {
    identityId: identity.id,
    issuer: identity.issuer,
    envelope: envelopeOf(identity.idToken),
    expiresAt: identity.idToken.expiresAt,
  };
};

/** Deletes every kept ID token of the person `userId` (they signed out); how many. */
export const forgetSsoIdTokens = async (db: Db, userId: string): Promise<number> =>
  (await db.ssoIdToken.deleteMany({ where: { identity: { userId } } })).count;

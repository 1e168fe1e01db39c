/**
 * An account whose email was never verified (made through an invitation bound to no email,
 * or an open sign-up) may have been made by anyone with someone else's address before its
 * owner came. When the owner shows the address is theirs (a sign-in through an issuer that
 * verified it, or a reset link mailed there), they take the account over and whoever made
 * it keeps nothing: its password is dropped (or replaced by the caller), its sessions end,
 * its API tokens are revoked (`account_claimed`), its pending reset links and its sign-ins
 * through issuers go. It keeps its teams and history; the installation's audit log and
 * every team it is in record the claim.
 */
import type { Prisma } from "../generated/prisma/client";
import { revokeUserApiTokens } from "./api-tokens";
import { recordAudit } from "./audit-log";

/** `via`: the issuer the owner signed in through, or the mailed reset link. Inside the caller's transaction. */
export const claimUnverifiedAccount = async (
  tx: Prisma.TransactionClient,
  userId: string,
  via: { issuer: string } | { mailedResetLink: true },
) => {
  const before = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: { passwordHash: true },
  });
  const tokensRevoked = await revokeUserApiTokens(tx, {
    userId,
    reason: "account_claimed",
    actorUserId: userId,
  });
  const { count: signInsRemoved } = await tx.userIdentity.deleteMany({ where: { userId } });
  await tx.passwordReset.deleteMany({ where: { userId, usedAt: null } });
  await tx.user.update({
    where: { id: userId },
    data: {
      passwordHash: null,
      sessionVersion: { increment: 1 },
      emailVerifiedAt: new Date(),
      resetSince: null,
    },
  });
  const facts = {
    ...("issuer" in via ? { issuer: via.issuer } : { through: "mailed reset link" }),
    passwordDropped: before.passwordHash !== null,
    tokensRevoked,
    signInsRemoved,
  };
  await recordAudit(tx, {
    teamId: null,
    actorUserId: userId,
    action: "account.claim",
    targetType: "user",
    targetId: userId,
    metadata: facts,
  });
  for (const { teamId } of await tx.membership.findMany({
    where: { userId },
    select: { teamId: true },
  })) {
    await recordAudit(tx, {
      teamId,
      actorUserId: userId,
      action: "member.account_claim",
      targetType: "user",
      targetId: userId,
      metadata: facts,
    });
  }
};

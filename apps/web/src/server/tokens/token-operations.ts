/**
 * API token operations for the dashboard's procedures and the REST API alike. A member
 * sees and revokes the tokens they made; an admin sees and revokes every member's, and
 * each token says who made it. A token may be given a role up to its maker's own (it never
 * acts above its owner's current role either) and an expiry. The installation's longest
 * token lifetime (Settings → Instance) is the expiry of a token asked for without one, and
 * a longer one is refused. A token made with a token (over REST) never outlives that
 * token, and is revoked with it. Creating and revoking are audited, each in the same
 * transaction as its change.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import type { createTokenInput, tokenIdInput } from "../contract/tokens.types";
import {
  createAuditedApiToken,
  findApiToken,
  listApiTokens,
  readInstanceSettings,
  revokeAuditedApiToken,
  type Db,
  type Role,
} from "@switchyard/db";

/** `tokenId` and `tokenExpiresAt`: the token the caller came with (REST), which a token it makes never outlives. */
export type TokenActor = {
  teamId: string;
  userId: string;
  role: Role;
  tokenId?: string;
  tokenExpiresAt?: Date | null;
};

export const listTokens = async (db: Db, actor: TokenActor) =>
  (
    await listApiTokens(
      db,
      actor.teamId,
      roleAtLeast(actor.role, "admin") ? {} : { userId: actor.userId },
    )
  ).map(({ user, ...token }) => ({
    ...token,
    createdBy: user,
  }));

const DAY_MS = 86_400_000;

/** The sooner of two expiries, where null is never. */
const sooner = (a: Date | null, b: Date | null) =>
  a === null ? b : b === null ? a : a < b ? a : b;

export const createToken = async (
  db: Db,
  actor: TokenActor,
  input: z.infer<typeof createTokenInput>,
) => {
  if (input.role && !roleAtLeast(actor.role, input.role)) {
    throw new AppError("FORBIDDEN", `a token's role is at most your own (${actor.role})`, {
      location: { path: "role" },
    });
  }
  const { maxTokenLifetimeDays: longest } = await readInstanceSettings(db);
  if (longest !== null && input.expiresInDays !== undefined && input.expiresInDays > longest) {
    throw new AppError(
      "USER.TOKEN.LIFETIME_TOO_LONG",
      `a token on this installation lives at most ${longest} days`,
      {
        location: { path: "expiresInDays" },
        details: { maxDays: longest },
      },
    );
  }
  const days = input.expiresInDays ?? longest;
  const asked = days === null ? null : new Date(Date.now() + days * DAY_MS);
  const expiresAt = sooner(asked, actor.tokenExpiresAt ?? null);
  return createAuditedApiToken(db, {
    teamId: actor.teamId,
    userId: actor.userId,
    name: input.name,
    expiresAt: expiresAt ?? undefined,
    role: input.role ?? actor.role,
    madeWithId: actor.tokenId,
  });
};

export const revokeToken = async (
  db: Db,
  actor: TokenActor,
  input: z.infer<typeof tokenIdInput>,
) => {
  const token = await findApiToken(db, actor.teamId, input.id);
  if (!token) throw new AppError("NOT_FOUND", "token not found");
  if (token.userId !== actor.userId && !roleAtLeast(actor.role, "admin")) {
    throw new AppError("FORBIDDEN", "only an admin may revoke a token another member made");
  }
  if (
    !(await revokeAuditedApiToken(db, { teamId: actor.teamId, actorUserId: actor.userId, token }))
  ) {
    throw new AppError("NOT_FOUND", "token not found");
  }
  return { id: token.id };
};

/**
 * Response shapes of the API-token operations, shared by the tRPC procedures, the REST
 * routes and the generated OpenAPI document; the request shapes are token-operations' inputs.
 */
import { z } from "zod";
import { TOKEN_REVOKED_REASONS } from "@switchyard/db";
import { timestamp } from "./timestamp";

const person = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  role: z.enum(["owner", "admin", "member", "viewer"]).nullable().describe("the most the token may do (never more than its owner's current role); null: its owner's role"),
  createdBy: person,
  madeWith: z.object({ id: z.string(), name: z.string(), prefix: z.string() }).nullable().describe("the token it was made with over the API; it never outlives that one"),
  revokedAt: timestamp.nullable().describe("when it stopped working; null while it is live"),
  revokedReason: z
    .enum(TOKEN_REVOKED_REASONS)
    .nullable()
    .describe(
      "why: revoked (by hand, see revokedBy), member_removed (its maker left the team), maker_revoked (the token it was made with was revoked), password_changed (made after a password reset link was issued for its maker, whose password then changed), account_claimed (its maker's unverified account was claimed by the verified owner of the email)",
    ),
  revokedBy: person.nullable().describe("who revoked it by hand"),
});
export const tokenList = z.array(apiToken);
export const listTokensResponse = z.object({ tokens: tokenList });
/** A new token: its secret is in this answer only. */
export const createTokenResponse = z.object({
  id: z.string(),
  token: z.string(),
  prefix: z.string(),
  role: z.enum(["owner", "admin", "member", "viewer"]).nullable(),
  expiresAt: timestamp.nullable(),
});
export const revokeTokenResponse = z.object({ id: z.string() });

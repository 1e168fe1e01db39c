/**
 * The API-token operations: their request and response shapes and how each is served,
 * from which the tRPC procedures, the REST routes and the OpenAPI document are derived.
 * A token's secret is shown once. Members manage their own; admins see and revoke every
 * member's.
 */
import { z } from "zod";
import { TOKEN_REVOKED_REASONS } from "@switchyard/db";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

export const createTokenInput = z.object({
  name: z.string().trim().min(1).max(80),
  expiresInDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .describe(
      "days until the token stops working; never when left out. A token made with a token never outlives that token",
    ),
  role: z
    .enum(["owner", "admin", "member", "viewer"])
    .optional()
    .describe("the most the token may do, up to your own role (your role when left out)"),
});
export const tokenIdInput = z.object({ id: z.string().min(1) });

const person = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  role: z
    .enum(["owner", "admin", "member", "viewer"])
    .nullable()
    .describe(
      "the most the token may do (never more than its owner's current role); null: its owner's role",
    ),
  createdBy: person,
  madeWith: z
    .object({ id: z.string(), name: z.string(), prefix: z.string() })
    .nullable()
    .describe("the token it was made with over the API; it never outlives that one"),
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

export const tokenOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: tokenList,
    rest: {
      method: "GET",
      path: "/tokens",
      summary:
        "API tokens with who made each (an admin sees every member's, a member their own): the live ones, then those revoked in the last 30 days with when and why",
      status: 200,
      description: "Tokens",
      wrap: "tokens",
      response: listTokensResponse,
    },
  }),
  create: operation({
    kind: "mutation",
    access: "team",
    input: createTokenInput,
    output: createTokenResponse,
    rest: {
      method: "POST",
      path: "/tokens",
      summary:
        "Make an API token that acts as you in this team, with a role up to yours (and never above your current role) and an optional expiry; it never outlives the token this request came with, and is revoked with it. The token is shown in this answer only",
      body: createTokenInput,
      status: 201,
      description: "The token",
      errors: {
        400: "Bad input, or an expiresInDays longer than the installation allows (USER.TOKEN.LIFETIME_TOO_LONG)",
      },
    },
  }),
  revoke: operation({
    kind: "mutation",
    access: "team",
    input: tokenIdInput,
    output: revokeTokenResponse,
    rest: {
      method: "DELETE",
      path: "/tokens/{id}",
      summary:
        "Revoke a token, and every token made with it: a member their own, an admin anyone's",
      status: 200,
      description: "Revoked",
    },
  }),
};

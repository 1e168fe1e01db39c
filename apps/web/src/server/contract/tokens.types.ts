/**
 * Response shapes of the API-token operations, shared by the tRPC procedures, the REST
 * routes and the generated OpenAPI document; the request shapes are token-operations' inputs.
 */
import { z } from "zod";
import { timestamp } from "./timestamp";

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  role: z.enum(["owner", "admin", "member", "viewer"]).nullable().describe("the most the token may do (never more than its owner's current role); null: its owner's role"),
  createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
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

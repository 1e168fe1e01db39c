/**
 * Response shapes of the API-token operations, shared by the REST routes and the generated
 * OpenAPI document; the request shapes are token-operations' inputs.
 */
import { z } from "zod";

const timestamp = z.string().describe("ISO 8601");

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export const listTokensResponse = z.object({ tokens: z.array(apiToken) });
export const revokeTokenResponse = z.object({ id: z.string() });

/**
 * POST /tokens: a new API token for the caller, with a role up to the caller's own and an
 * optional expiry; its secret is in this answer only. (Listing and revoking are in rest-api.ts.)
 */
import { createTokenResponse } from "../../contract/tokens.types";
import { createToken, createTokenInput } from "../../tokens/token-operations";
import { answer, parse, routeFinder, type Route } from "../route-kit";

export const tokenRoutes: Route[] = [
  {
    method: "POST",
    path: "/tokens",
    summary:
      "Make an API token that acts as you in this team, with a role up to yours (and never above your current role) and an optional expiry; it never outlives the token this request came with, and is revoked with it. The token is shown in this answer only",
    body: createTokenInput,
    status: 201,
    description: "The token",
    response: createTokenResponse,
    errors: { 400: "Bad input, or an expiresInDays longer than the installation allows (USER.TOKEN.LIFETIME_TOO_LONG)" },
    handler: async ({ deps, caller, body }) => answer(routeOf("POST", "/tokens"), await createToken(deps.db, caller, await parse(createTokenInput, body))),
  },
];

const routeOf = routeFinder(tokenRoutes);

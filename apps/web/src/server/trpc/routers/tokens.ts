import { createToken, createTokenInput, listTokens, revokeToken, tokenIdInput } from "../../tokens/token-operations";
import { createTokenResponse, revokeTokenResponse, tokenList } from "../../contract/tokens.types";
import { router, teamProcedure } from "../init";

/**
 * API tokens for the REST API; a token's secret is shown once. Members manage their own;
 * admins see and revoke every member's.
 */
export const tokensRouter = router({
  list: teamProcedure.output(tokenList).query(({ ctx }) => listTokens(ctx.db, ctx)),
  create: teamProcedure
    .input(createTokenInput)
    .output(createTokenResponse)
    .mutation(({ ctx, input }) => createToken(ctx.db, ctx, input)),
  revoke: teamProcedure
    .input(tokenIdInput)
    .output(revokeTokenResponse)
    .mutation(({ ctx, input }) => revokeToken(ctx.db, ctx, input)),
});

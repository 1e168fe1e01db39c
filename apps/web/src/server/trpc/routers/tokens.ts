import { createToken, createTokenInput, listTokens, revokeToken, tokenIdInput } from "../../tokens/token-operations";
import { router, teamProcedure } from "../init";

/**
 * API tokens for the REST API; a token's secret is shown once. Members manage their own;
 * admins see and revoke every member's.
 */
export const tokensRouter = router({
  list: teamProcedure.query(({ ctx }) => listTokens(ctx.db, ctx)),
  create: teamProcedure.input(createTokenInput).mutation(({ ctx, input }) => createToken(ctx.db, ctx, input)),
  revoke: teamProcedure.input(tokenIdInput).mutation(({ ctx, input }) => revokeToken(ctx.db, ctx, input)),
});

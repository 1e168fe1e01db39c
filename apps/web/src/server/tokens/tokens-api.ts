/** What runs each API-token operation (contract/tokens.types.ts), on both surfaces. */
import { tokenOperations } from "../contract/tokens.types";
import { implement } from "../api/implement";
import { createToken, listTokens, revokeToken } from "./token-operations";

export const tokensApi = implement(tokenOperations, {
  list: ({ db, caller }) => listTokens(db, caller),
  create: ({ db, caller }, input) => createToken(db, caller, input),
  revoke: ({ db, caller }, input) => revokeToken(db, caller, input),
});

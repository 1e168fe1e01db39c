export { beginAuthorization } from "./begin-authorization";
export { completeAuthorization } from "./complete-authorization";
export { discoverOAuthServer } from "./discover-oauth-server";
export { obtainOAuthClient } from "./obtain-oauth-client";
export { OAuthTokenSource } from "./oauth-token-source";
export type { FetchLike, OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
export {
  ClientCredentialsTokenSource,
  clientKeyAlg,
  requestClientCredentialsToken,
  type ClientCredentials,
} from "./client-credentials";

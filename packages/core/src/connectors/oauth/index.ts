export { beginAuthorization } from "./begin-authorization";
export {
  CLIENT_METADATA_PATH,
  clientMetadataDocument,
  clientMetadataUrlFor,
  isClientIdUrl,
  metadataDocumentClient,
} from "./client-metadata-document";
export { completeAuthorization } from "./complete-authorization";
export { discoverOAuthServer } from "./discover-oauth-server";
export { obtainOAuthClient } from "./obtain-oauth-client";
export { OAuthTokenSource } from "./oauth-token-source";
export type { FetchLike, OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
export {
  moreAccessRefusal,
  scopeRefusal,
  scopeUnion,
  stepUpDecision,
  tokenScopeRefusal,
} from "./scope-step-up";
export { crossAppAccessToken } from "./cross-app-access";
export {
  ClientCredentialsTokenSource,
  clientKeyAlg,
  requestClientCredentialsToken,
  type ClientCredentials,
} from "./client-credentials";
export { authorizationServerPin, pinDrift, pinFromMetadata } from "./authorization-server-pin";

export { startOAuthServer } from "./oauth-server";
export type {
  OAuthServerOptions,
  TestAuthorizationServer,
  TestClient,
  TokenRequest,
  VerifiedAccessToken,
} from "./oauth-server";
export {
  startMetadataOnlyAuthorizationServer,
  startProtectedMcpServer,
} from "./protected-mcp-server";
export type { ProtectedMcpServer, ResourceAuthority } from "./protected-mcp-server";
export { connectWithOAuth, TEST_REDIRECT_URI } from "./connect-with-oauth";
export { startOidcIssuer } from "./oidc-issuer";
export type { OidcIssuerOptions, TestOidcIssuer } from "./oidc-issuer";
export { startClientCredentialsServer } from "./client-credentials-server";
export type {
  ClientCredentialsRequest,
  ClientCredentialsServer,
  ClientCredentialsServerOptions,
} from "./client-credentials-server";

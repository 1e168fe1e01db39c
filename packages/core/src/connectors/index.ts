/**
 * What a connector is (definitions, the curated catalog, tool rules, OAuth, stored grants):
 * no process, no sandbox, safe for the web app. The worker's runtime (the pool, step
 * catalogs) is `@switchyard/core/connectors/host`.
 */
export type {
  ConnectorHost,
  ConnectorSpec,
  CredentialSource,
  LaneGate,
  UpstreamTool,
} from "./connector-host";
export {
  authorizationServerPin,
  beginAuthorization,
  CLIENT_METADATA_PATH,
  clientMetadataDocument,
  clientMetadataUrlFor,
  ClientCredentialsTokenSource,
  clientKeyAlg,
  completeAuthorization,
  crossAppAccessToken,
  discoverOAuthServer,
  isClientIdUrl,
  metadataDocumentClient,
  moreAccessRefusal,
  obtainOAuthClient,
  pinDrift,
  pinFromMetadata,
  scopeRefusal,
  scopeUnion,
  stepUpDecision,
  tokenScopeRefusal,
  OAuthTokenSource,
  requestClientCredentialsToken,
  type ClientCredentials,
  type OAuthClientInfo,
  type OAuthServerInfo,
  type OAuthTokenSet,
} from "./oauth";
export {
  MAX_CONNECTORS_PER_TEAM,
  needsCredential,
  parseConnectorDefinition,
  usesCrossAppAccess,
  toConnectorSpec,
} from "./definition";
export type { ConnectorDefinition } from "./definition";
export { toolAllowed } from "./tool-allow";
export { stepConnectors } from "./step-connectors";
export {
  BUILTIN_CONNECTORS_INSIDE,
  CONNECTORS_INSIDE,
  connectorCommandRefusal,
} from "./connector-command-policy";
export { destinationChanges } from "./connector-destination";
export {
  grantCoversUrl,
  grantFromJson,
  grantSecrets,
  grantToJson,
  reconnectRefusal,
} from "./stored-grant";
export {
  CURATED_CONNECTORS,
  curatedConnector,
  curatedDefinition,
  mergeCuratedConnectors,
} from "./curated";
export { namesASecret, secretLookalike } from "./secret-lookalike";
export type { ToolTask, ToolTaskJournal } from "./tool-task";

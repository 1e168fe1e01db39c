export { buildStepCatalog, catalogForConfig } from "./build-step-catalog";
export type { ConnectorHost, CredentialSource, LaneGate, UpstreamTool } from "./connector-host";
export { McpConnectorHost } from "./mcp-connector-host";
export type { ConnectorSpec } from "./mcp-connector-host";
export {
  beginAuthorization,
  completeAuthorization,
  discoverOAuthServer,
  obtainOAuthClient,
  OAuthTokenSource,
  type OAuthClientInfo,
  type OAuthServerInfo,
  type OAuthTokenSet,
} from "./oauth";
export { CURATED_CONNECTORS, curatedConnector, curatedDefinition, mergeCuratedConnectors } from "./curated";
export type { ConnectorListing, CuratedChoice, CuratedConnector } from "./curated";

/**
 * What connecting a connector over OAuth produces and the worker keeps: the discovered
 * server (plain JSON, stored with the connector), the client the authorization server
 * knows us as (its secret sealed), and the token set (sealed).
 */
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";

export type { FetchLike } from "../../egress/egress-fetch";

export type OAuthServerInfo = {
  /** The MCP server URL the connector was given. */
  serverUrl: string;
  /** The RFC 8707 resource indicator sent on every authorization and token request. */
  resource: string;
  /** Where the RFC 9728 protected resource metadata was read; absent for a server of the 2025-03-26 revision, which publishes none. */
  resourceMetadataUrl?: string;
  /** The scope to ask for: the 401's `scope`, else the metadata's `scopes_supported`. */
  scope?: string;
  /** The authorization server's issuer identifier, checked against its metadata. */
  issuer: string;
  /** Its RFC 8414 (or OpenID) metadata. */
  metadata: AuthorizationServerMetadata;
};

export type OAuthClientInfo = {
  /** The authorization server that issued this client id; it is presented to no other. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint, as registered. */
  tokenEndpointAuthMethod?: string;
  /** When a registered secret expires, in seconds since the epoch (RFC 7591); absent: never. */
  clientSecretExpiresAt?: number;
  /** The scope a dynamically registered client was registered with; absent: none named. */
  registeredScope?: string;
};

export type OAuthTokenSet = {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: Date;
  scope?: string;
  tokenType: string;
};

/**
 * Switchyard's client ID metadata document (draft-ietf-oauth-client-id-metadata-document, as
 * the MCP authorization spec uses it): one JSON document at a stable https URL that says who
 * the client is and where it may send the browser back, whose URL is itself the client id.
 * An authorization server that lists `client_id_metadata_document_supported` fetches it
 * instead of having every team register a client. Here: where the document lives for an
 * instance, what it says, and when it is presented instead of a registered client.
 */
import type { OAuthClientInfo, OAuthServerInfo } from "./oauth-types";

/** Where the web app serves the document, under the dashboard's public address. */
export const CLIENT_METADATA_PATH = "/api/connectors/oauth/client-metadata.json";

/**
 * A URL the drafts accept as a client id: https, a host, a path other than "/", no fragment,
 * no user info, no "." or ".." segment.
 */
export const isClientIdUrl = (value: string): boolean => {
  const url = URL.parse(value);
  if (!url || url.protocol !== "https:" || !url.hostname) return false;
  if (url.username || url.password || value.includes("#")) return false;
  if (url.pathname === "/" || url.pathname === "") return false;
  const raw = value.slice("https://".length).split(/[?#]/)[0] ?? "";
  return !raw.split("/").some((s) => /^(\.|%2e){1,2}$/i.test(s));
};

/**
 * The document's URL for an instance: `configured` (an operator's setting: a URL, or "off")
 * wins; else the path above under `publicUrl` when that is https. An http dashboard has none:
 * the spec accepts only https client ids, so its connections register clients instead.
 */
export const clientMetadataUrlFor = (input: {
  publicUrl: string | undefined;
  configured: string | undefined;
}): string | undefined => {
  const { publicUrl, configured } = input;
  if (configured === "off") return undefined;
  if (configured) return isClientIdUrl(configured) ? new URL(configured).href : undefined;
  if (!publicUrl) return undefined;
  const derived = `${new URL(publicUrl).origin}${CLIENT_METADATA_PATH}`;
  return isClientIdUrl(derived) ? derived : undefined;
};

/** The document itself: a public client (PKCE, no secret) that sends the browser back to `redirectUri`. */
export const clientMetadataDocument = (input: {
  clientId: string;
  redirectUri: string;
  /** The dashboard's address, named as the client's home page where it is https. */
  publicUrl?: string | undefined;
  clientName?: string;
}) => {
  const home = input.publicUrl ? new URL(input.publicUrl).origin : undefined;
  return {
    client_id: input.clientId,
    client_name: input.clientName ?? "Switchyard",
    ...(home?.startsWith("https://") ? { client_uri: home } : {}),
    redirect_uris: [input.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "web",
  };
};

/**
 * The client to present to `server` by the document at `documentUrl`, or undefined when the
 * server does not list support for such documents, or cannot take a client without a secret
 * (its token endpoint lists no "none"): the caller then registers one.
 */
export const metadataDocumentClient = (
  server: OAuthServerInfo,
  documentUrl: string | undefined,
): OAuthClientInfo | undefined => {
  const { metadata, issuer } = server;
  if (!documentUrl || !isClientIdUrl(documentUrl)) return undefined;
  if (metadata.client_id_metadata_document_supported !== true) return undefined;
  const methods = metadata.token_endpoint_auth_methods_supported;
  if (methods && !methods.includes("none")) return undefined;
  return { issuer, clientId: documentUrl, tokenEndpointAuthMethod: "none" };
};

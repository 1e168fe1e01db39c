/**
 * The instance's OAuth client metadata document: served by the web app at a stable public
 * route, and presented as the client id to an authorization server that lists support for
 * such documents, so that no team registers a client there (core decides when; see
 * client-metadata-document.ts). The document's URL is <AUTH_URL>/api/connectors/oauth/
 * client-metadata.json on an https dashboard, or SWITCHYARD_OAUTH_CLIENT_METADATA_URL where
 * the operator publishes a copy elsewhere; an http dashboard has none and registers clients.
 */
import {
  clientMetadataDocument,
  clientMetadataUrlFor,
  metadataDocumentClient,
  type OAuthServerInfo,
} from "@switchyard/core/connectors";
import { AppError } from "@switchyard/core/errors";
import { env } from "~/env";
import { errorAnswer } from "../http/api-answer";

/** The document's URL for this instance, or undefined when it has none. */
const clientMetadataUrl = () =>
  clientMetadataUrlFor({
    publicUrl: env().AUTH_URL || undefined,
    configured: env().SWITCHYARD_OAUTH_CLIENT_METADATA_URL || undefined,
  });

/** The client to present to `server` by the document, or undefined: register one instead. */
export const documentClientFor = (server: OAuthServerInfo) =>
  metadataDocumentClient(server, clientMetadataUrl());

const CACHE_SECONDS = 3600;

/**
 * The answer of the document's route: the document, or a 404 saying why there is none.
 * `callbackUrl`: the connectors' OAuth callback (connector-oauth.ts), its one redirect URI.
 */
export const clientMetadataAnswer = async (
  callbackUrl: () => Promise<string>,
): Promise<Response> => {
  const clientId = clientMetadataUrl();
  if (!clientId)
    return errorAnswer(
      new AppError(
        "NOT_FOUND",
        "this instance publishes no client metadata document: its address (AUTH_URL) is not https, or SWITCHYARD_OAUTH_CLIENT_METADATA_URL is off",
      ),
      "client metadata document",
    );
  const document = clientMetadataDocument({
    clientId,
    redirectUri: await callbackUrl(),
    publicUrl: env().AUTH_URL || undefined,
  });
  return Response.json(document, {
    headers: { "cache-control": `public, max-age=${CACHE_SECONDS}` },
  });
};

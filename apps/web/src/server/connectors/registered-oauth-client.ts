/**
 * The client a team presents to an authorization server that registers clients dynamically
 * (RFC 7591): the one registered before for that server and redirect URI while its secret
 * lasts, else a new registration, kept (its secret sealed) for the next connection and for
 * every other connector behind the same server. A client the server refuses at its token
 * endpoint (invalid_client) is forgotten, so that the next connection registers again; one
 * whose authorizations stopped coming back (refused at the server's page) is replaced.
 */
import {
  obtainOAuthClient,
  type OAuthClientInfo,
  type OAuthServerInfo,
} from "@switchyard/core/connectors";
import { newCredentialId, openSecret, sealSecret, type Keyring } from "@switchyard/core/crypto";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import {
  confirmOAuthClient,
  findOAuthClient,
  forgetOAuthClient,
  keepOAuthClient,
  markOAuthClientPresented,
  type Db,
} from "@switchyard/db";

/** How long a begun authorization lasts (connector-oauth.ts): one presented longer ago and unanswered is not coming back. */
const UNANSWERED_MS = 10 * 60_000;

/** A kept secret must outlive the authorization begun with it (ten minutes) and its refreshes soon after. */
const EXPIRY_MARGIN_MS = 15 * 60_000;

/** Whether every scope of `wanted` is one of `registered`. */
const covers = (registered: string, wanted: string) => {
  const held = new Set(registered.split(" "));
  return wanted.split(" ").every((s) => s === "" || held.has(s));
};

type ClientDeps = { db: Db; keyring: Keyring; fetch: FetchLike };

const holder = (teamId: string, credentialId: string) => ({
  teamId,
  credentialId,
  name: "oauth-client",
});

export const registeredOAuthClient = async (
  deps: ClientDeps,
  { teamId, server, redirectUri }: { teamId: string; server: OAuthServerInfo; redirectUri: string },
): Promise<OAuthClientInfo> => {
  const key = { teamId, issuer: server.issuer, redirectUri };
  const kept = await findOAuthClient(deps.db, key);
  const lasts =
    !kept?.secretExpiresAt || kept.secretExpiresAt.getTime() - Date.now() > EXPIRY_MARGIN_MS;
  // A server that dropped the client refuses it at its authorization page without sending the
  // browser back, so no callback ever says so: an authorization presented with it that has not
  // come back within the time a begun one lasts is taken as such, and a new client registered.
  const unanswered = kept?.presentedAt && Date.now() - kept.presentedAt.getTime() > UNANSWERED_MS;
  // A client registered for a narrower scope may be refused a wider one (scope step-up): one
  // registered for the scope now asked for replaces it.
  const narrower = kept?.scope && server.scope && !covers(kept.scope, server.scope) ? true : false;
  if (kept && lasts && !unanswered && !narrower) {
    await markOAuthClientPresented(deps.db, { ...key, clientId: kept.clientId });
    return {
      issuer: server.issuer,
      clientId: kept.clientId,
      ...(kept.secret
        ? {
            clientSecret: openSecret(
              deps.keyring,
              holder(teamId, kept.secret.credentialId),
              kept.secret.envelope,
            ),
          }
        : {}),
      ...(kept.tokenEndpointAuthMethod
        ? { tokenEndpointAuthMethod: kept.tokenEndpointAuthMethod }
        : {}),
    };
  }
  const client = await obtainOAuthClient(server, {
    fetch: deps.fetch,
    redirectUri,
    clientName: "Switchyard",
  });
  const credentialId = newCredentialId();
  await keepOAuthClient(deps.db, {
    ...key,
    clientId: client.clientId,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod ?? null,
    secret: client.clientSecret
      ? {
          credentialId,
          envelope: sealSecret(deps.keyring, holder(teamId, credentialId), client.clientSecret),
        }
      : null,
    secretExpiresAt: client.clientSecretExpiresAt
      ? new Date(client.clientSecretExpiresAt * 1000)
      : null,
    scope: client.registeredScope ?? null,
  });
  return client;
};

/** After a failed code exchange: a client the server does not know (invalid_client) is not presented again. */
export const forgetRefusedClient = async (
  db: Db,
  input: { teamId: string; server: OAuthServerInfo; client: OAuthClientInfo; redirectUri: string },
  error: unknown,
) => {
  const oauthError = (error instanceof AppError ? error.details : undefined) as
    { oauthError?: unknown } | undefined;
  if (oauthError?.oauthError !== "invalid_client") return;
  await forgetOAuthClient(db, {
    teamId: input.teamId,
    issuer: input.server.issuer,
    redirectUri: input.redirectUri,
    clientId: input.client.clientId,
  });
};

/** After a completed code exchange: the server knows the client, whatever was presented before. */
export const confirmRegisteredClient = (
  db: Db,
  input: { teamId: string; server: OAuthServerInfo; client: OAuthClientInfo; redirectUri: string },
) =>
  confirmOAuthClient(db, {
    teamId: input.teamId,
    issuer: input.server.issuer,
    redirectUri: input.redirectUri,
    clientId: input.client.clientId,
  });

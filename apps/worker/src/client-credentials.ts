/**
 * The worker's side of a machine-to-machine connector (`auth: client_credentials`): the team's
 * stored credential is the client's secret or private key, and the worker obtains access
 * tokens with it when the pool needs one, no browser involved. The authorization server is
 * discovered as for the code flow (the scope comes from the resource's metadata), a token is
 * kept in this process until shortly before it expires or the server refuses it (one new
 * token per refusal), and a refusal at the token endpoint marks the credential for an admin
 * to set again. Every token joins the scrubbers of the steps using the connector.
 */
import {
  ClientCredentialsTokenSource,
  discoverOAuthServer,
  requestClientCredentialsToken,
  type ClientCredentials,
  type ConnectorDefinition,
  type OAuthServerInfo,
} from "@switchyard/core/connectors";
import type { FetchLike } from "@switchyard/core/egress";
import {
  markConnectorCredentialNeedsReconnect,
  type CredentialForUse,
  type Db,
} from "@switchyard/db";
import type { GrantScrubbers } from "./grant-scrubbers";
import type { Logger } from "./logger";

type HttpDefinition = Extract<ConnectorDefinition, { transport: "http" }>;

/** Sources by stored credential (its row and sealed value): a new secret or key starts afresh. */
const sources = new Map<string, { url: string; source: ClientCredentialsTokenSource }>();

/** At most this many connectors' sources are kept; the oldest go first (they obtain a token again). */
const MAX_SOURCES = 256;

export const clientCredentialsResolver = (
  input: {
    db: Db;
    log: Logger;
    teamId: string;
    fetch: FetchLike;
    scrubbers: GrantScrubbers;
  },
  def: HttpDefinition,
  stored: CredentialForUse,
  value: string,
) => {
  const key = `${stored.id}/${stored.sealed.credentialId}`;
  const kept = sources.get(key);
  const source =
    kept && kept.url === def.url
      ? kept.source
      : newSource(input, def, stored, credentialsOf(def, value));
  if (!kept || kept.source !== source) {
    sources.delete(key);
    if (sources.size >= MAX_SOURCES) sources.delete(sources.keys().next().value!);
    sources.set(key, { url: def.url, source });
  }
  return {
    secrets: [value],
    resolver: {
      resolve: () => source.resolve(),
      rejected: (token: string) => source.invalidate(token),
    },
  };
};

const credentialsOf = (def: HttpDefinition, value: string): ClientCredentials => {
  const clientId = def.oauth_client_id ?? "";
  return def.oauth_client_auth === "private_key_jwt"
    ? { clientId, method: "private_key_jwt", privateKeyPem: value }
    : { clientId, method: "client_secret", secret: value };
};

const newSource = (
  input: Parameters<typeof clientCredentialsResolver>[0],
  def: HttpDefinition,
  stored: CredentialForUse,
  credentials: ClientCredentials,
) => {
  let server: OAuthServerInfo | undefined;
  return new ClientCredentialsTokenSource({
    obtain: async () => {
      server ??= await discoverOAuthServer(def.url, {
        fetch: input.fetch,
        grant: "client_credentials",
      });
      return requestClientCredentialsToken({
        server,
        credentials,
        fetch: input.fetch,
        connectorName: def.name,
      });
    },
    onTokens: (tokens) => input.scrubbers.learn(stored.id, [tokens.accessToken]),
    onRefused: async (error) => {
      input.log.warn("a connector's client credentials were refused at the token endpoint", {
        connector: def.id,
        reason: (error.details as { reason?: string } | undefined)?.reason ?? "",
      });
      await markConnectorCredentialNeedsReconnect(input.db, stored.id, "refresh_refused", {
        teamId: input.teamId,
        credentialId: stored.sealed.credentialId,
      }).catch(() => undefined);
    },
  });
};

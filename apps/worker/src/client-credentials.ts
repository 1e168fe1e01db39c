/**
 * The worker's side of a machine-to-machine connector (`auth: client_credentials`): the team's
 * stored credential is the client's secret or private key, and the worker obtains access
 * tokens with it when the pool needs one, no browser involved. The authorization server is
 * discovered as for the code flow (the scope comes from the resource's metadata), a token is
 * kept in this process until shortly before it expires or the server refuses it (one new
 * token per refusal), and a refusal at the token endpoint marks the credential for an admin
 * to set again. The secret goes only to the authorization server kept with it when it was set:
 * when discovery names another issuer or token endpoint, nothing is sent, the credential is
 * marked `destination_changed` and the change audited. Every token joins the scrubbers of the
 * steps using the connector.
 */
import {
  ClientCredentialsTokenSource,
  discoverOAuthServer,
  pinDrift,
  pinFromMetadata,
  reconnectRefusal,
  requestClientCredentialsToken,
  stepUpDecision,
  type ClientCredentials,
  type ConnectorDefinition,
  type OAuthServerInfo,
  type OAuthTokenSet,
} from "@switchyard/core/connectors";
import type { FetchLike } from "@switchyard/core/egress";
import {
  markConnectorCredentialNeedsReconnect,
  recordAudit,
  type CredentialForUse,
  type Db,
} from "@switchyard/db";
import type { GrantScrubbers } from "./grant-scrubbers";
import type { Logger } from "./logger";
import type { WidenScope } from "./scope-step-up";

type HttpDefinition = Extract<ConnectorDefinition, { transport: "http" }>;

/** Sources by stored credential (its row and sealed value): a new secret or key starts afresh. */
const sources = new Map<string, { url: string } & Source>();

type Source = { source: ClientCredentialsTokenSource; widen: WidenScope };

/** At most this many connectors' sources are kept; the oldest go first (they obtain a token again). */
const MAX_SOURCES = 256;

export const clientCredentialsResolver = (
  input: {
    db: Db;
    log: Logger;
    teamId: string;
    fetch: FetchLike;
    scrubbers: GrantScrubbers;
    /** Who started the run (or called from the console), for the audit entry of a refusal. */
    starterId?: string | null;
    runId?: string | null;
  },
  def: HttpDefinition,
  stored: CredentialForUse,
  value: string,
) => {
  const key = `${stored.id}/${stored.sealed.credentialId}`;
  const kept = sources.get(key);
  const { source, widen } =
    kept && kept.url === def.url ? kept : newSource(input, def, stored, credentialsOf(def, value));
  if (!kept || kept.source !== source) {
    sources.delete(key);
    if (sources.size >= MAX_SOURCES) sources.delete(sources.keys().next().value!);
    sources.set(key, { url: def.url, source, widen });
  }
  return {
    secrets: [value],
    resolver: {
      resolve: () => source.resolve(),
      rejected: (token: string) => source.invalidate(token),
      widen,
    },
  };
};

const credentialsOf = (def: HttpDefinition, value: string): ClientCredentials => {
  const clientId = def.oauth_client_id ?? "";
  return def.oauth_client_auth === "private_key_jwt"
    ? { clientId, method: "private_key_jwt", privateKeyPem: value }
    : { clientId, method: "client_secret", secret: value };
};

/** The authorization server discovered now, when it is the one the secret was set for; else the refusal. */
const pinnedServer = async (
  input: Parameters<typeof clientCredentialsResolver>[0],
  def: HttpDefinition,
  stored: CredentialForUse,
): Promise<OAuthServerInfo> => {
  const server = await discoverOAuthServer(def.url, {
    fetch: input.fetch,
    grant: "client_credentials",
  });
  const pinned = pinFromMetadata(stored.metadata);
  const drift = pinDrift(pinned, server);
  if (drift === undefined) return server;
  input.log.warn("a connector's authorization server is not the one its secret was set for", {
    connector: def.id,
    issuer: server.issuer,
  });
  const holding = { teamId: input.teamId, credentialId: stored.sealed.credentialId };
  const { count } = await markConnectorCredentialNeedsReconnect(
    input.db,
    stored.id,
    "destination_changed",
    holding,
  );
  if (count > 0)
    await recordAudit(input.db, {
      teamId: input.teamId,
      actorUserId: input.starterId ?? null,
      action: "connector.credential.destination_changed",
      targetType: "connector",
      targetId: def.id,
      metadata: {
        runId: input.runId ?? null,
        owner: "team",
        pinnedIssuer: pinned?.issuer ?? null,
        pinnedTokenEndpoint: pinned?.tokenEndpoint ?? null,
        discoveredIssuer: server.issuer,
        discoveredTokenEndpoint: server.metadata.token_endpoint,
      },
    });
  throw reconnectRefusal(def.id, "destination_changed", `${drift}; nothing was sent`);
};

const newSource = (
  input: Parameters<typeof clientCredentialsResolver>[0],
  def: HttpDefinition,
  stored: CredentialForUse,
  credentials: ClientCredentials,
): Source => {
  let server: OAuthServerInfo | undefined;
  /** The scope asked for since a call was refused for want of more (scope step-up); else the server's. */
  let wider: string | undefined;
  let last: OAuthTokenSet | undefined;
  const source = new ClientCredentialsTokenSource({
    obtain: async () => {
      server ??= await pinnedServer(input, def, stored);
      return requestClientCredentialsToken({
        server: wider ? { ...server, scope: wider } : server,
        credentials,
        fetch: input.fetch,
        connectorName: def.name,
      });
    },
    onTokens: (tokens) => {
      last = tokens;
      input.scrubbers.learn(stored.id, [tokens.accessToken]);
    },
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
  const widen: WidenScope = (scope) => {
    const decision = stepUpDecision(scope, {
      requested: wider ?? server?.scope,
      granted: last?.scope,
    });
    if (decision.kind === "refused") return false;
    wider = decision.scope;
    if (last) source.invalidate(last.accessToken);
    return true;
  };
  return { source, widen };
};

/**
 * The credential of an enterprise (cross-app access) connector in the worker: nothing is
 * stored for the member; their access comes from their sign-in. The ID token kept at their
 * latest sign-in through the connector's IdP is exchanged there for an identity assertion
 * grant, and that at the server's authorization server for an access token, when the step
 * opens (so a refusal stops it with its code) and again when the token expires or the server
 * refuses it. Every token joins the run's scrubber; none is stored. The client secret an
 * admin set goes only to the authorization server kept with it when it was set.
 */
import {
  crossAppAccessToken,
  discoverOAuthServer,
  pinDrift,
  pinFromMetadata,
  stepUpDecision,
  type ConnectorDefinition,
  type OAuthServerInfo,
  type OAuthTokenSet,
} from "@switchyard/core/connectors";
import { openConnectorCredential, openSsoIdToken, type Keyring } from "@switchyard/core/crypto";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  CLIENT_SECRET_OWNER,
  connectorClientSecret,
  recordAudit,
  ssoIdTokenOf,
  type Db,
} from "@switchyard/db";

type EnterpriseDefinition = Extract<ConnectorDefinition, { transport: "http" }> & {
  idp_issuer: string;
  idp_client_id: string;
  oauth_client_id: string;
};

type Input = {
  db: Db;
  keyring: Keyring;
  teamId: string;
  /** The member whose access it is (who started the run, or called from the console). */
  userId: string | null;
  def: EnterpriseDefinition;
  fetch: FetchLike;
  scrubber: Scrubber;
  /** Every secret of the access as it is obtained, for the other steps sharing the connection. */
  learn?: (secrets: string[]) => void;
};

/** Renewed this long before the token says it ends. */
const EARLY_MS = 30_000;

const noIdentity = (def: EnterpriseDefinition, why: string) =>
  new AppError(
    "USER.CONNECTOR.NO_SSO_IDENTITY",
    `connector "${def.id}" is reached with each member's access granted by ${def.idp_issuer}, and ${why}: sign in to Switchyard through ${def.idp_issuer}, then try again`,
  );

/** The member's ID token from their latest sign-in through the connector's IdP. */
const memberIdToken = async (input: Input): Promise<string> => {
  const { def } = input;
  if (input.userId === null) throw noIdentity(def, "this run has no member who started it");
  const kept = await ssoIdTokenOf(input.db, {
    teamId: input.teamId,
    userId: input.userId,
    issuer: def.idp_issuer,
  });
  if (!kept) throw noIdentity(def, "the member has not signed in through it");
  if (kept.expiresAt && kept.expiresAt.getTime() <= Date.now())
    throw noIdentity(def, "the member's sign-in there has expired");
  return openSsoIdToken(
    input.keyring,
    { identityId: kept.identityId, issuer: kept.issuer },
    kept.envelope,
  );
};

/**
 * The secret of Switchyard's client at the server's authorization server, when an admin set
 * one, and only for `server` when that is the one kept with it: otherwise nothing is sent,
 * the refusal is audited, and the step is told an admin must set it again.
 */
const clientSecretFor = async (
  input: Input,
  server: OAuthServerInfo,
): Promise<string | undefined> => {
  const sealed = await connectorClientSecret(input.db, {
    teamId: input.teamId,
    slug: input.def.id,
  });
  if (!sealed) return undefined;
  const pinned = pinFromMetadata(sealed.metadata);
  const drift = pinDrift(pinned, server);
  if (drift !== undefined) {
    await recordAudit(input.db, {
      teamId: input.teamId,
      actorUserId: input.userId,
      action: "connector.client_secret.destination_changed",
      targetType: "connector",
      targetId: input.def.id,
      metadata: {
        pinnedIssuer: pinned?.issuer ?? null,
        pinnedTokenEndpoint: pinned?.tokenEndpoint ?? null,
        discoveredIssuer: server.issuer,
        discoveredTokenEndpoint: server.metadata.token_endpoint,
      },
    });
    throw new AppError(
      "USER.CONNECTOR.NEEDS_RECONNECT",
      `connector "${input.def.id}" was not used: ${drift.replace("its secret", "its client secret")}; nothing was sent. An admin who trusts that server sets the client secret again`,
      { details: { reason: "destination_changed" } },
    );
  }
  return openConnectorCredential(
    input.keyring,
    {
      teamId: input.teamId,
      credentialId: sealed.credentialId,
      connector: input.def.id,
      owner: CLIENT_SECRET_OWNER,
    },
    sealed.envelope,
  );
};

/**
 * The member's access to the connector: obtained now (throwing NO_SSO_IDENTITY, IDP_REFUSED
 * or the authorization server's refusal), then a resolver for the pool that renews it.
 */
export const openCrossAppAccess = async (input: Input) => {
  const { def } = input;
  let server: OAuthServerInfo | undefined;
  let held: OAuthTokenSet | undefined;
  let pending: Promise<OAuthTokenSet> | undefined;
  /** The scope asked for since a call was refused for want of more (scope step-up); else the server's. */
  let wider: string | undefined;
  const obtain = async () => {
    server ??= await discoverOAuthServer(def.url, { fetch: input.fetch, grant: "jwt-bearer" });
    const clientSecret = await clientSecretFor(input, server);
    const idToken = await memberIdToken(input);
    input.scrubber.add(idToken);
    if (clientSecret) input.scrubber.add(clientSecret);
    const tokens = await crossAppAccessToken({
      fetch: input.fetch,
      idp: { issuer: def.idp_issuer, clientId: def.idp_client_id },
      server: wider ? { ...server, scope: wider } : server,
      client: { clientId: def.oauth_client_id, ...(clientSecret ? { clientSecret } : {}) },
      idToken,
    });
    input.scrubber.add(tokens.accessToken);
    input.learn?.([idToken, ...(clientSecret ? [clientSecret] : []), tokens.accessToken]);
    return tokens;
  };
  /** One exchange at a time; the others wait for it. */
  const renew = () => {
    pending ??= obtain().finally(() => (pending = undefined));
    return pending.then((tokens) => (held = tokens));
  };
  const fresh = () =>
    held !== undefined &&
    (held.expiresAt === undefined || held.expiresAt.getTime() - EARLY_MS > Date.now());
  const first = await renew();
  return {
    secrets: [first.accessToken],
    resolver: {
      resolve: async () => (fresh() ? held!.accessToken : (await renew()).accessToken),
      rejected: (token: string) => {
        if (held?.accessToken === token) held = undefined;
      },
      widen: (scope: string | undefined) => {
        const decision = stepUpDecision(scope, {
          requested: wider ?? server?.scope,
          granted: held?.scope,
        });
        if (decision.kind === "refused") return false;
        wider = decision.scope;
        held = undefined;
        return true;
      },
    },
  };
};

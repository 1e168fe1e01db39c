/**
 * Connecting an http connector over OAuth 2.1 from the dashboard. Beginning discovers the
 * connector's authorization server (core refuses one without PKCE S256), gets a client (the
 * definition's oauth_client_id with the client secret an admin set, if any, else the instance's
 * client metadata document where the server takes one, else by dynamic registration, kept for
 * the team) and answers the URL to send the browser to; what the callback
 * needs (server, client, PKCE verifier, who began, for whose account) waits in Redis for ten
 * minutes under a digest of the state, sealed. The callback takes that entry once, whatever
 * follows; it completes only in the session of the user who began, who must still be allowed to
 * set that credential, stores the grant sealed as the connector's credential and sends the
 * browser back to the Connectors page with the outcome. No token, code or verifier is ever in a
 * URL, a log or an answer.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { headers } from "next/headers";
import {
  beginAuthorization,
  completeAuthorization,
  discoverOAuthServer,
  grantToJson,
  obtainOAuthClient,
  parseConnectorDefinition,
  scopeUnion,
  type OAuthClientInfo,
  type OAuthServerInfo,
} from "@switchyard/core/connectors";
import { openSecret, sealSecret, type Envelope, type Keyring } from "@switchyard/core/crypto";
import { AppError, surfaceOfError } from "@switchyard/core/errors";
import {
  connectorCredentialScopes,
  connectorDefinitionOf,
  findConnector,
  findMembership,
  TEAM_OWNER,
  type Db,
} from "@switchyard/db";
import { env } from "~/env";
import type { WebEgress } from "../egress";
import { requireRole } from "../trpc/init";
import { documentClientFor } from "./client-metadata";
import { openConnectorClientSecret } from "./connector-client-secret";
import {
  confirmRegisteredClient,
  forgetRefusedClient,
  registeredOAuthClient,
} from "./registered-oauth-client";
import { fingerprintOf, storeSealedCredential, type ConnectorActor } from "./connector-operations";

const CALLBACK_PATH = "/api/connectors/oauth/callback";
const CONNECTORS_PAGE = "/settings/connectors";
const PENDING_SECONDS = 600;

type Scope = "team" | "member";
/** `egress`: every request to the connector's servers goes through its fetch, under its rule. */
type OAuthDeps = { db: Db; redis: Redis; keyring: Keyring; prefix: string; egress: WebEgress };
/** An authorization begun and not yet completed: sealed in Redis, never shown. */
type Pending = {
  teamId: string;
  userId: string;
  connector: string;
  owner: string;
  scope: Scope;
  server: OAuthServerInfo;
  client: OAuthClientInfo;
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The scope asked for, kept with the grant: a later step-up asks for it again. */
  requestedScope?: string;
};

/** The connector and whose account its grant is for, by the rules of setting a credential. */
const oauthAccount = async (db: Db, actor: ConnectorActor, id: string, scope: Scope) => {
  requireRole(scope === "team" ? "admin" : "member", actor.role);
  const row = await findConnector(db, actor.teamId, id);
  if (!row) throw new AppError("NOT_FOUND", `the team has no connector "${id}": set it up first`);
  const def = parseConnectorDefinition(connectorDefinitionOf(row));
  if (def.transport !== "http" || def.auth !== "oauth")
    throw new AppError(
      "BAD_REQUEST",
      `connector "${id}" does not sign in with OAuth: set its credential instead`,
    );
  if (def.credential_mode !== scope)
    throw new AppError(
      "BAD_REQUEST",
      scope === "team"
        ? `connector "${id}" uses each member's own account: members connect their own`
        : `connector "${id}" uses the team's account: an admin connects it`,
      { location: { path: "scope" } },
    );
  return { def, owner: scope === "team" ? TEAM_OWNER : actor.userId };
};

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/;

const requestHost = async () => {
  try {
    return (await headers()).get("host");
  } catch {
    return null; // called outside a request
  }
};

/** The dashboard's address: AUTH_URL, else the request's own where it came over loopback. */
export const callbackUrl = async () => {
  const configured = env().AUTH_URL;
  if (configured) return `${new URL(configured).origin}${CALLBACK_PATH}`;
  const host = await requestHost();
  if (host && LOOPBACK_HOST.test(host)) return `http://${host}${CALLBACK_PATH}`;
  throw new AppError(
    "SYSTEM.CONFIG",
    "set AUTH_URL to the address people reach the dashboard at: connecting over OAuth sends the browser back to it",
  );
};

const digestOf = (state: string) => createHash("sha256").update(state).digest("base64url");
const pendingKey = (prefix: string, digest: string) => `${prefix}:connector-oauth:${digest}`;
/** Sealed under the state's digest: an entry moved to another key does not open. */
const pendingHolder = (digest: string) => ({
  teamId: "-",
  credentialId: digest,
  name: "connector-oauth",
});
const BYTES = ["wrappedKey", "ciphertext", "iv", "authTag"] as const;

const envelopeText = (envelope: Envelope) =>
  JSON.stringify({
    keyId: envelope.keyId,
    ...Object.fromEntries(BYTES.map((k) => [k, envelope[k].toString("base64")])),
  });

const envelopeOf = (text: string): Envelope => {
  const json = JSON.parse(text) as Record<string, string>;
  return {
    keyId: json.keyId ?? "",
    ...Object.fromEntries(BYTES.map((k) => [k, Buffer.from(json[k] ?? "", "base64")])),
  } as Envelope;
};

/**
 * The scope to ask for: discovery's, and when the account is connected already, what its
 * authorization asked for and was granted, plus the scope its server asked for since (a
 * connector that needs more access): connecting again never narrows an account's access.
 */
const scopeToAsk = async (
  db: Db,
  teamId: string,
  slug: string,
  owner: string,
  discovered: string | undefined,
) => {
  const held = await connectorCredentialScopes(db, { teamId, slug, owner });
  return scopeUnion(discovered, held?.requested, held?.granted, held?.requiredScope) || undefined;
};

/** Begins connecting `id` for the team's account (admins) or the caller's own: the URL to send the browser to. */
export const beginConnectorOAuth = async (
  deps: OAuthDeps,
  actor: ConnectorActor,
  input: { id: string; scope: Scope },
) => {
  const { def, owner } = await oauthAccount(deps.db, actor, input.id, input.scope);
  const redirectUri = await callbackUrl();
  const fetch = deps.egress.oauth;
  const discovered = await discoverOAuthServer(def.url, { fetch });
  const scope = await scopeToAsk(deps.db, actor.teamId, def.id, owner, discovered.scope);
  // Registration names the scope to ask for, where the server lists it.
  const server = scope ? { ...discovered, scope } : discovered;
  // A client registered by hand (with the secret an admin set), else the instance's client
  // metadata document where the server takes one, else the team's registered one.
  const client = def.oauth_client_id
    ? await obtainOAuthClient(server, {
        fetch,
        redirectUri,
        preRegistered: {
          clientId: def.oauth_client_id,
          clientSecret: await openConnectorClientSecret(deps.db, deps.keyring, {
            teamId: actor.teamId,
            connector: def.id,
          }),
        },
      })
    : (documentClientFor(server) ??
      (await registeredOAuthClient(
        { db: deps.db, keyring: deps.keyring, fetch },
        { teamId: actor.teamId, server, redirectUri },
      )));
  const { url, state, codeVerifier } = await beginAuthorization({
    server,
    client,
    redirectUri,
    ...(scope ? { scope } : {}),
  });
  const pending: Pending = {
    teamId: actor.teamId,
    userId: actor.userId,
    connector: def.id,
    owner,
    scope: input.scope,
    server,
    client,
    state,
    codeVerifier,
    redirectUri,
    ...(scope ? { requestedScope: scope } : {}),
  };
  const digest = digestOf(state);
  const sealed = sealSecret(deps.keyring, pendingHolder(digest), JSON.stringify(pending));
  await deps.redis.set(
    pendingKey(deps.prefix, digest),
    envelopeText(sealed),
    "EX",
    PENDING_SECONDS,
  );
  return {
    authorizationUrl: url.href,
    redirectUri,
    expiresAt: new Date(Date.now() + PENDING_SECONDS * 1000),
  };
};

/** The entry a state names, taken out of Redis so that no state completes twice. */
const takePending = async (deps: OAuthDeps, state: string | null): Promise<Pending> => {
  const digest = state ? digestOf(state) : undefined;
  const text = digest ? await deps.redis.getdel(pendingKey(deps.prefix, digest)) : null;
  if (!digest || !text)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_FAILED",
      "this authorization is unknown, expired or already used: connect the connector again",
    );
  return JSON.parse(openSecret(deps.keyring, pendingHolder(digest), envelopeOf(text))) as Pending;
};

const complete = async (
  deps: OAuthDeps,
  userId: string | undefined,
  pending: Pending,
  callback: URL,
) => {
  if (!userId) throw new AppError("UNAUTHORIZED", "sign in, then connect the connector again");
  if (userId !== pending.userId)
    throw new AppError(
      "FORBIDDEN",
      "someone else began this authorization: it completes only in the signed-in browser of whoever began it",
    );
  const membership = await findMembership(deps.db, userId, { teamId: pending.teamId });
  if (!membership) throw new AppError("FORBIDDEN", "you are not a member of this team");
  const actor: ConnectorActor = { teamId: pending.teamId, userId, role: membership.role };
  const { def, owner } = await oauthAccount(deps.db, actor, pending.connector, pending.scope);
  if (new URL(def.url).href !== pending.server.serverUrl)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_FAILED",
      `the URL of connector "${def.id}" changed while authorizing: connect it again`,
    );
  const { server, client } = pending;
  const tokens = await completeAuthorization({
    ...pending,
    callback,
    fetch: deps.egress.oauth,
  }).catch(async (error: unknown) => {
    await forgetRefusedClient(deps.db, pending, error);
    throw error;
  });
  await confirmRegisteredClient(deps.db, pending);
  return storeSealedCredential(deps.db, deps.keyring, actor, {
    id: def.id,
    owner,
    kind: "oauth",
    value: grantToJson({ server, client, tokens }),
    fingerprint: fingerprintOf(`${client.issuer} ${client.clientId}`),
    expiresAt: tokens.expiresAt ?? null,
    metadata: {
      issuer: client.issuer,
      clientId: client.clientId,
      resource: server.resource,
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      ...(pending.requestedScope ? { requestedScope: pending.requestedScope } : {}),
    },
  });
};

/**
 * The callback the authorization server sends the browser to, for the signed-in `userId`:
 * a 303 to the Connectors page saying `connected` (team or member) or the `error` code.
 */
export const connectorOAuthCallback = async (
  deps: OAuthDeps,
  userId: string | undefined,
  callback: URL,
): Promise<Response> => {
  const query = new URLSearchParams();
  try {
    const pending = await takePending(deps, callback.searchParams.get("state"));
    query.set("connector", pending.connector);
    await complete(deps, userId, pending, callback);
    query.set("connected", pending.scope);
  } catch (error) {
    const app = error instanceof AppError ? error : undefined;
    // Only the code and our own message: an unexpected error's text could quote what it handled.
    const code = (error as { code?: unknown } | undefined)?.code;
    if (!app || surfaceOfError(app).http >= 500)
      console.error(
        "switchyard-web: a connector's OAuth callback failed",
        app
          ? `${app.code}: ${app.message}`
          : `${(error as Error).name} ${typeof code === "string" ? code : ""}`,
      );
    query.set("error", app?.code ?? "INTERNAL");
  }
  return new Response(null, {
    status: 303,
    headers: {
      location: `${CONNECTORS_PAGE}?${query.toString()}`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
};

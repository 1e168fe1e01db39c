/**
 * The client secret of a connector's pre-registered OAuth client (`oauth_client_id`): some
 * authorization servers (GitHub's among them) authenticate the client at the token endpoint,
 * so the code exchange and every refresh need it, as does the jwt-bearer grant of an
 * enterprise (cross-app access) connector. Admins set or clear it; it is sealed for
 * the team and the connector like a credential, and no answer ever carries it: listings say
 * only whether one is set. Each change commits with its audit entry (a fingerprint, never
 * the value). An enterprise connector's secret is for the authorization server its server
 * names when the secret is set: that server's issuer and token endpoint are kept with it, and
 * the worker sends it nowhere else (authorization-server-pin.ts).
 */
import {
  authorizationServerPin,
  discoverOAuthServer,
  parseConnectorDefinition,
} from "@switchyard/core/connectors";
import {
  newCredentialId,
  openConnectorCredential,
  sealConnectorCredential,
  type Keyring,
} from "@switchyard/core/crypto";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import {
  CLIENT_SECRET_OWNER,
  connectorClientSecret,
  connectorDefinitionOf,
  findConnector,
  recordAudit,
  setConnectorClientSecret,
  type Db,
} from "@switchyard/db";
import { requireRole } from "../trpc/init";
import { fingerprintOf, type ConnectorActor } from "./connector-operations";

const holder = (teamId: string, credentialId: string, connector: string) => ({
  teamId,
  credentialId,
  connector,
  owner: CLIENT_SECRET_OWNER,
});

/** Admins: sets (or, with null, clears) the client secret of an OAuth connector's registered client. */
export const setConnectorClientSecretOf = async (
  db: Db,
  keyring: Keyring,
  actor: ConnectorActor,
  input: { id: string; secret: string | null },
  /** The web app's OAuth egress: an enterprise connector's authorization server is discovered with it. */
  oauthFetch: FetchLike,
) => {
  requireRole("admin", actor.role);
  const row = await findConnector(db, actor.teamId, input.id);
  if (!row) throw new AppError("NOT_FOUND", `the team has no connector "${input.id}"`);
  const def = parseConnectorDefinition(connectorDefinitionOf(row));
  if (def.transport !== "http" || (def.auth !== "oauth" && def.auth !== "enterprise"))
    throw new AppError(
      "BAD_REQUEST",
      `connector "${input.id}" does not sign in with OAuth: a client secret is for an OAuth client`,
      { location: { path: "secret" } },
    );
  const secret = input.secret?.trim() ?? null;
  if (secret !== null && secret.length === 0)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "the client secret is empty", {
      location: { path: "secret" },
    });
  const pinned =
    secret && def.auth === "enterprise"
      ? authorizationServerPin(
          await discoverOAuthServer(def.url, { fetch: oauthFetch, grant: "jwt-bearer" }),
        )
      : undefined;
  const credentialId = newCredentialId();
  const sealed = secret
    ? {
        credentialId,
        envelope: sealConnectorCredential(
          keyring,
          holder(actor.teamId, credentialId, def.id),
          secret,
        ),
      }
    : null;
  await db.$transaction(async (tx) => {
    const { replaced } = await setConnectorClientSecret(tx, {
      teamId: actor.teamId,
      slug: def.id,
      sealed,
      ...(pinned ? { metadata: pinned } : {}),
    });
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorUserId: actor.userId,
      action: secret ? "connector.client_secret.set" : "connector.client_secret.clear",
      targetType: "connector",
      targetId: def.id,
      metadata: { replaced, ...(secret ? { fingerprint: fingerprintOf(secret) } : {}) },
    });
  });
  return { id: def.id, clientSecret: secret ? ("set" as const) : ("not_set" as const) };
};

/** The client secret of a connector, opened for a token request; undefined when none is set. */
export const openConnectorClientSecret = async (
  db: Db,
  keyring: Keyring,
  { teamId, connector }: { teamId: string; connector: string },
): Promise<string | undefined> => {
  const sealed = await connectorClientSecret(db, { teamId, slug: connector });
  if (!sealed) return undefined;
  return openConnectorCredential(
    keyring,
    holder(teamId, sealed.credentialId, connector),
    sealed.envelope,
  );
};

/**
 * Machine-to-machine connectors (`auth: client_credentials`): the team's credential is the
 * client's secret or private key, which the worker presents at the token endpoint itself. It
 * is checked when an admin sets it (a private key must be one Switchyard can sign with) and
 * dropped, not merely marked, when the connector's destination, sign-in or client changes:
 * it was given for one client at one server and nobody can read it back to check. The
 * authorization server it is for (issuer and token endpoint) is discovered when it is set
 * and kept with it: the worker sends it nowhere else (see authorization-server-pin.ts).
 */
import {
  authorizationServerPin,
  clientKeyAlg,
  discoverOAuthServer,
  parseConnectorDefinition,
} from "@switchyard/core/connectors";
import type { ConnectorDefinition } from "@switchyard/core/connectors";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import {
  connectorDefinitionOf,
  findConnector,
  revokeConnectorCredential,
  TEAM_OWNER,
  type Db,
  type PrismaClientOrTransaction,
} from "@switchyard/db";

export const usesClientCredentials = (def: ConnectorDefinition | undefined): boolean =>
  def?.transport === "http" && def.auth === "client_credentials";

/**
 * A change of how a connector signs in that takes its credential to another use: to or from
 * client credentials (a bearer token must never become a secret sent to a token endpoint),
 * or another client id or client authentication (one client's secret is not another's).
 */
export const clientMoved = (
  before: ConnectorDefinition | undefined,
  after: ConnectorDefinition,
): boolean => {
  if (usesClientCredentials(before) !== usesClientCredentials(after)) return true;
  if (!usesClientCredentials(after) || before?.transport !== "http" || after.transport !== "http")
    return false;
  return (
    before.oauth_client_id !== after.oauth_client_id ||
    (before.oauth_client_auth ?? "client_secret") !== (after.oauth_client_auth ?? "client_secret")
  );
};

/** Deletes the team's client secret or key of the connector, in the caller's transaction; what the audit entry adds. */
export const dropClientCredentials = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  slug: string,
): Promise<Record<string, number>> => {
  try {
    await revokeConnectorCredential(tx, { teamId, slug, owner: TEAM_OWNER });
    return { clientCredentialsDropped: 1 };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return {};
    throw error;
  }
};

const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/**
 * Before a team credential of a machine-to-machine connector is stored: a private key must be
 * a PEM key that signs with RS256 or ES256 (USER.CONNECTOR.INVALID_KEY at `value`), and a
 * connector that signs in with a client secret is not handed a private key by mistake. Then
 * the authorization server the resource names now is discovered (through `fetch`, the egress
 * rule): what is kept with the credential, the server it may be sent to. Other connectors: undefined.
 */
export const checkClientCredentialValue = async (
  db: Db,
  teamId: string,
  id: string,
  value: string,
  fetch: FetchLike,
): Promise<Record<string, string> | undefined> => {
  const row = await findConnector(db, teamId, id);
  if (!row) return undefined;
  const def = parseConnectorDefinition(connectorDefinitionOf(row));
  if (def.transport !== "http" || def.auth !== "client_credentials") return undefined;
  if (def.oauth_client_auth === "private_key_jwt") clientKeyAlg(value, "value");
  else if (PEM_PRIVATE_KEY.test(value))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `connector "${id}" signs in with a client secret: to sign in with this private key, set its oauth_client_auth to private_key_jwt first`,
      { location: { path: "value" } },
    );
  const server = await discoverOAuthServer(def.url, { fetch, grant: "client_credentials" });
  return authorizationServerPin(server);
};

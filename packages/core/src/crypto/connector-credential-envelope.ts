/**
 * A connector's credential at rest: an API key, or an OAuth grant (server, client and token
 * set as JSON), sealed in a credential envelope bound to the team, the credential id, the
 * connector and whose account it is ("team" or a member's user id), so sealed bytes copied
 * to another connector, member or team do not open. The web app seals what a person gives;
 * the worker opens it for a call, and seals refreshed tokens again.
 */
import { openSecret, sealSecret, type Envelope, type Keyring } from "./credential-envelope";

type ConnectorCredentialOwner = {
  teamId: string;
  credentialId: string;
  connector: string;
  owner: string;
};

/** What a connector credential (and its credential row's name) is held under. */
export const connectorCredentialHolder = (connector: string, owner: string) =>
  `connector:${connector}:${owner}`;

const envelopeOwner = (owner: ConnectorCredentialOwner) => ({
  teamId: owner.teamId,
  credentialId: owner.credentialId,
  name: connectorCredentialHolder(owner.connector, owner.owner),
});

/** Seals a connector credential for its owner. */
export const sealConnectorCredential = (
  keyring: Keyring,
  owner: ConnectorCredentialOwner,
  value: string,
): Envelope => sealSecret(keyring, envelopeOwner(owner), value);

/** Throws SYSTEM.CREDENTIAL_UNREADABLE for an envelope of another team, connector or owner, or altered. */
export const openConnectorCredential = (
  keyring: Keyring,
  owner: ConnectorCredentialOwner,
  envelope: Envelope,
): string => openSecret(keyring, envelopeOwner(owner), envelope);

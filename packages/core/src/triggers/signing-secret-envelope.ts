/**
 * A signing secret at rest (a webhook trigger's, or a notification endpoint's): a credential
 * envelope bound to the team, the credential id and what holds it, so sealed bytes copied
 * to another trigger, endpoint or team do not open. The web app seals it when it is made
 * (and shows it once); whoever signs or verifies with it opens it.
 */
import { openSecret, sealSecret, type Envelope, type Keyring } from "../crypto/credential-envelope";

type Holder = { kind: "trigger" | "notification"; id: string };
type SigningSecretOwner = { teamId: string; credentialId: string; holder: Holder };

/** What a signing secret (and its credential row's name) is held under. */
export const signingSecretHolder = (holder: Holder) => `${holder.kind}:${holder.id}`;

const envelopeOwner = (owner: SigningSecretOwner) => ({
  teamId: owner.teamId,
  credentialId: owner.credentialId,
  name: signingSecretHolder(owner.holder),
});

export const sealSigningSecret = (
  keyring: Keyring,
  owner: SigningSecretOwner,
  secret: string,
): Envelope => sealSecret(keyring, envelopeOwner(owner), secret);

/** Throws SYSTEM.CREDENTIAL_UNREADABLE for an envelope of another holder or team, or altered. */
export const openSigningSecret = (
  keyring: Keyring,
  owner: SigningSecretOwner,
  envelope: Envelope,
): string => openSecret(keyring, envelopeOwner(owner), envelope);

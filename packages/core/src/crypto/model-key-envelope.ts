/**
 * A team's API key for a model vendor at rest: a credential envelope bound to the team, the
 * credential id and the vendor, so sealed bytes copied to another team, row or vendor (or
 * read as a team variable's) do not open. The web app seals; the worker opens.
 */
import { openSecret, sealSecret, type Envelope, type Keyring } from "./credential-envelope";

type ModelKeyOwner = { teamId: string; credentialId: string; vendor: string };

/** What a vendor's key (and its credential row's name) is held under. */
export const modelKeyHolder = (vendor: string) => `model:${vendor}`;

const envelopeOwner = (owner: ModelKeyOwner) => ({
  teamId: owner.teamId,
  credentialId: owner.credentialId,
  name: modelKeyHolder(owner.vendor),
});

/** Seals a model API key for its team, credential and vendor. */
export const sealModelKey = (keyring: Keyring, owner: ModelKeyOwner, key: string): Envelope =>
  sealSecret(keyring, envelopeOwner(owner), key);

/** Throws SYSTEM.CREDENTIAL_UNREADABLE for an envelope of another team, credential or vendor, or altered; SYSTEM.CREDENTIAL_KEY_MISSING for an unknown key. */
export const openModelKey = (keyring: Keyring, owner: ModelKeyOwner, envelope: Envelope): string =>
  openSecret(keyring, envelopeOwner(owner), envelope);

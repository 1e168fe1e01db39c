/**
 * The ID token of a person's sign-in at rest: a credential envelope bound to the identity
 * (issuer and subject link) it came with, so sealed bytes copied to another person's
 * identity, or read as a team's credential, do not open. The web app seals it at sign-in;
 * the worker opens it when an enterprise connector asks the IdP for a grant.
 */
import {
  openSecret,
  rewrapSecret,
  sealSecret,
  type Envelope,
  type Keyring,
} from "./credential-envelope";

type SsoIdTokenOwner = { identityId: string; issuer: string };

/** Bound to no team: a sign-in is the person's, whichever team they act in. */
const envelopeOwner = (owner: SsoIdTokenOwner) => ({
  teamId: "sso",
  credentialId: owner.identityId,
  name: `sso-id-token:${owner.issuer}`,
});

/** Seals an ID token for the identity it was issued to. */
export const sealSsoIdToken = (keyring: Keyring, owner: SsoIdTokenOwner, token: string): Envelope =>
  sealSecret(keyring, envelopeOwner(owner), token);

/** Throws SYSTEM.CREDENTIAL_UNREADABLE for an envelope of another identity, or altered. */
export const openSsoIdToken = (keyring: Keyring, owner: SsoIdTokenOwner, envelope: Envelope) =>
  openSecret(keyring, envelopeOwner(owner), envelope);

/** Its data key wrapped again by the current master key (`keys:rewrap`); the sealed token is untouched. */
export const rewrapSsoIdToken = (keyring: Keyring, owner: SsoIdTokenOwner, envelope: Envelope) =>
  rewrapSecret(keyring, envelopeOwner(owner), envelope);

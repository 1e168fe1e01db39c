/**
 * A team variable's secret value at rest: a credential envelope bound to the team, the
 * credential id and the variable's name, so sealed bytes copied to another team, row or
 * variable do not open. The web app seals, the worker opens and re-seals old (format 1)
 * envelopes; storage only ever sees envelopes.
 */
import { randomBytes } from "node:crypto";
import {
  openSecret,
  sealSecret,
  type Envelope,
  type Keyring,
  type SealFormat,
} from "./credential-envelope";

/** `name`: the variable's name. */
type VariableOwner = { teamId: string; credentialId: string; name: string };

/** What a variable's envelope (and its credential row's name) is held under. */
export const variableHolder = (name: string) => `variable:${name}`;

/** A fresh id for the credential that holds one sealed value. */
export const newCredentialId = () => `cred_${randomBytes(12).toString("hex")}`;

const envelopeOwner = (owner: VariableOwner) => ({
  teamId: owner.teamId,
  credentialId: owner.credentialId,
  name: variableHolder(owner.name),
});

/** Seals a secret variable's value for its team and name. */
export const sealVariable = (keyring: Keyring, owner: VariableOwner, value: string): Envelope =>
  sealSecret(keyring, envelopeOwner(owner), value);

/** Throws SYSTEM.CREDENTIAL_UNREADABLE for an envelope of another team, credential or name, or altered; SYSTEM.CREDENTIAL_KEY_MISSING for an unknown key. */
export const openVariable = (
  keyring: Keyring,
  owner: VariableOwner,
  envelope: Envelope,
  format: SealFormat = 2,
): string => openSecret(keyring, envelopeOwner(owner), envelope, format);

/** A format 1 envelope (sealed before names were bound) opened and sealed again, bound to the name and under the current key. */
export const resealVariable = (
  keyring: Keyring,
  owner: VariableOwner,
  legacy: Envelope,
): Envelope => sealVariable(keyring, owner, openVariable(keyring, owner, legacy, 1));

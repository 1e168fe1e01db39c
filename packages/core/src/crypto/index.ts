export { keyringOf, openSecret, parseMasterKey, sealSecret } from "./credential-envelope";
export type { Envelope, EnvelopeOwner, Keyring, MasterKey, SealFormat } from "./credential-envelope";

export {
  keyringOf,
  openSecret,
  parseMasterKey,
  rewrapSecret,
  sealSecret,
} from "./credential-envelope";
export type { Envelope, Keyring, SealFormat } from "./credential-envelope";
export {
  newCredentialId,
  openVariable,
  resealVariable,
  sealVariable,
  variableHolder,
} from "./variable-envelope";
export { modelKeyHolder, openModelKey, sealModelKey } from "./model-key-envelope";
export {
  connectorCredentialHolder,
  openConnectorCredential,
  sealConnectorCredential,
} from "./connector-credential-envelope";
export { openSsoIdToken, rewrapSsoIdToken, sealSsoIdToken } from "./sso-id-token-envelope";

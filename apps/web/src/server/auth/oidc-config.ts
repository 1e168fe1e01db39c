/**
 * Whether single sign-on is configured (an OpenID Connect issuer with its client id and
 * secret), read from the environment; for the sign-in and the instance settings alike,
 * without loading the sign-in library.
 */
import { env } from "~/env";

/** The issuer and client when all three are set; undefined otherwise. */
export const oidcConfig = () => {
  const {
    SWITCHYARD_OIDC_ISSUER: issuer,
    SWITCHYARD_OIDC_CLIENT_ID: clientId,
    SWITCHYARD_OIDC_CLIENT_SECRET: clientSecret,
    SWITCHYARD_OIDC_NAME: name,
  } = env();
  return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name } : undefined;
};

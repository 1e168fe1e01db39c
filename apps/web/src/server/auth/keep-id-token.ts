/**
 * At a sign-in through the configured issuer, keeps the ID token it issued, sealed for the
 * person's identity there: enterprise (cross-app access) connectors exchange it at that IdP
 * for the person's access to a server, without a browser. It replaces the previous one; a
 * sign-in without an ID token changes nothing.
 */
import { sealSsoIdToken, type Keyring } from "@switchyard/core/crypto";
import { keepSsoIdToken, type Db } from "@switchyard/db";

/** The `exp` claim of a JWT, read without checking it (the issuer checks it at the exchange). */
const expiryOf = (jwt: string): Date | null => {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as {
      exp?: unknown;
    };
    return typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null;
  } catch {
    return null;
  }
};

export const keepSignInIdToken = async (
  services: { db: Db; keyring: Keyring },
  signIn: { issuer: string; subject: string; idToken: string | undefined },
): Promise<boolean> => {
  const { idToken, issuer, subject } = signIn;
  if (!idToken) return false;
  return keepSsoIdToken(
    services.db,
    { issuer, subject, expiresAt: expiryOf(idToken) },
    (identityId) => sealSsoIdToken(services.keyring, { identityId, issuer }, idToken),
  );
};

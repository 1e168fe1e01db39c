/**
 * At a sign-in through the configured issuer, keeps the ID token it issued, sealed for the
 * person's identity there: enterprise (cross-app access) connectors exchange it at that IdP
 * for the person's access to a server, without a browser. It replaces the previous one; a
 * sign-in without an ID token changes nothing. Signing out deletes the person's kept tokens.
 */
import { sealSsoIdToken, type Keyring } from "@switchyard/core/crypto";
import { forgetSsoIdTokens, keepSsoIdToken, type Db } from "@switchyard/db";

/** The id the issuer's callback is served under: /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

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

/**
 * The `jwt` callback's part at a sign-in: through the configured issuer (`issuer`), the ID
 * token NextAuth hands it in `account` is kept; any other sign-in keeps nothing.
 */
export const keepIdTokenOfSignIn = async (
  services: { db: Db; keyring: Keyring },
  issuer: string | undefined,
  /** NextAuth's `account` and `profile` of the callback (only what is read of them). */
  signIn: {
    account: { provider: string; id_token?: string } | null | undefined;
    profile: { sub?: string | null } | undefined;
  },
): Promise<boolean> => {
  const { account, profile } = signIn;
  if (!issuer || account?.provider !== OIDC_PROVIDER_ID || typeof profile?.sub !== "string")
    return false;
  return keepSignInIdToken(services, { issuer, subject: profile.sub, idToken: account.id_token });
};

/** The `signOut` event's part: the signed-out person's kept ID tokens are deleted (a JWT session names them). */
export const forgetSignInIdTokens = async (
  db: Db,
  message: { token?: { sub?: string | null } | null } | { session?: unknown },
): Promise<void> => {
  const userId = "token" in message ? message.token?.sub : undefined;
  if (userId) await forgetSsoIdTokens(db, userId);
};

/**
 * Sign-in for the dashboard: email and password against the users table, and any OpenID
 * Connect issuer configured in the environment (users found by issuer and subject, see
 * identities.ts in the db package); JWT sessions. An issuer's ID token is kept, sealed, for
 * enterprise connectors (keep-id-token.ts).
 * Attempts are throttled per account and per client address (see check-credentials.ts);
 * a session is checked against the user's session version and its team membership on
 * every use (see session-token.ts).
 */
import NextAuth, { CredentialsSignin, type DefaultSession } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import type { Provider } from "next-auth/providers";
import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { linkOidcSignIn, PASSWORD_MAX_LENGTH, readInstanceSettings } from "@switchyard/db";
import { env } from "~/env";
import { db, keyring, redis } from "../services";
import { checkCredentials } from "./check-credentials";
import { clientAddress } from "./client-address";
import { forgetSignInIdTokens, keepIdTokenOfSignIn, OIDC_PROVIDER_ID } from "./keep-id-token";
import { takeRememberedInvitation } from "./invitation-cookie";
import { oidcConfig } from "./oidc-config";
import { refreshSessionToken } from "./session-token";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
    /** the team the session acts in; checked against the membership on every use */
    teamId?: string;
  }
}

/** Too many attempts for this account or address; the login page says how long to wait. */
export class SignInThrottled extends CredentialsSignin {
  override code = "rate_limited";
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}

/** Passwords are refused: the installation signs in through single sign-on only. */
export class SsoOnlySignIn extends CredentialsSignin {
  override code = "sso_only";
}

export { OIDC_PROVIDER_ID };

const credentialsSchema = z.object({
  email: z.email(),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

/** The configured OpenID Connect issuer, when its issuer, client id and secret are all set. */
const oidcProvider = (): Provider[] => {
  const config = oidcConfig();
  if (!config) return [];
  const { issuer, clientId, clientSecret, name } = config;
  return [
    {
      id: OIDC_PROVIDER_ID,
      name,
      type: "oidc",
      issuer,
      clientId,
      clientSecret,
      checks: ["pkce", "state", "nonce"],
      authorization: { params: { scope: "openid email profile" } },
      profile: (profile: Record<string, unknown>) => ({
        id: String(profile.sub),
        email: typeof profile.email === "string" ? profile.email : null,
        name: typeof profile.name === "string" ? profile.name : null,
      }),
    },
  ];
};

/**
 * Signs in through the issuer: the user it stands for (found, linked, claimed or made), as
 * sessions know users. Someone new gets an account only as the installation admits them:
 * open sign-up, the invitation they came through, or an instance admin's email the
 * operator named.
 */
const oidcUser = async (profile: Record<string, unknown> | undefined) => {
  const issuer = env().SWITCHYARD_OIDC_ISSUER;
  if (!profile || !issuer || typeof profile.sub !== "string")
    throw new AppError("UNAUTHORIZED", "the sign-in service gave no subject");
  const emailVerified = profile.email_verified === true || profile.email_verified === "true";
  const { userId } = await linkOidcSignIn(
    db(),
    {
      issuer,
      subject: profile.sub,
      email: typeof profile.email === "string" ? profile.email : null,
      emailVerified,
      name: typeof profile.name === "string" ? profile.name : null,
    },
    {
      openSignUp: (await readInstanceSettings(db())).openSignUp,
      invitationToken: await takeRememberedInvitation(),
      admittedEmails: env().SWITCHYARD_INSTANCE_ADMINS,
    },
  );
  return { id: userId };
};

/** The issuer's button label on the login page, when one is configured. */
export const oidcSignInName = () => oidcConfig()?.name;

export const {
  handlers,
  auth,
  signIn,
  signOut,
  unstable_update: updateSession,
} = NextAuth(() => ({
  trustHost: true,
  session: { strategy: "jwt" },
  pages: { signIn: "/login" },
  logger: {
    // A refused sign-in is an answer, not a server error.
    error: (error) => {
      if (!(error instanceof CredentialsSignin)) console.error("switchyard-web: auth", error);
    },
  },
  providers: [
    ...oidcProvider(),
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (raw, request) => {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        try {
          const user = await checkCredentials(
            {
              db: db(),
              redis: redis(),
              prefix: env().SWITCHYARD_QUEUE_PREFIX,
              ssoConfigured: oidcConfig() !== undefined,
            },
            {
              ...parsed.data,
              address: clientAddress(request.headers, env().SWITCHYARD_TRUSTED_PROXIES),
            },
          );
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        } catch (error) {
          if (error instanceof AppError && error.code === "RATE_LIMITED") {
            throw new SignInThrottled(
              (error.details as { retryAfterSeconds: number }).retryAfterSeconds,
            );
          }
          if (error instanceof AppError && error.code === "USER.INSTANCE.SSO_ONLY")
            throw new SsoOnlySignIn();
          throw error;
        }
      },
    }),
  ],
  events: {
    // The ID token kept for enterprise connectors goes with the session.
    signOut: (message) => forgetSignInIdTokens(db(), message),
  },
  callbacks: {
    // A refused issuer sign-in goes back to the login page with the reason.
    signIn: async ({ account, profile }) => {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      try {
        await oidcUser(profile);
        return true;
      } catch (error) {
        if (error instanceof AppError)
          return `/login?error=oidc&reason=${encodeURIComponent(error.userMessage)}`;
        throw error;
      }
    },
    // Runs on sign-in and on every use of the session: a password change or a removal
    // from the session's team ends it here.
    jwt: async ({ token, user, account, profile, trigger, session }) => {
      const signedIn = account?.provider === OIDC_PROVIDER_ID ? await oidcUser(profile) : user;
      await keepIdTokenOfSignIn({ db: db(), keyring: keyring() }, env().SWITCHYARD_OIDC_ISSUER, {
        account,
        profile,
      });
      return refreshSessionToken(db(), { token, user: signedIn, trigger, session });
    },
    session: ({ session, token }) => {
      if (token.sub) session.user.id = token.sub;
      session.teamId = typeof token.teamId === "string" ? token.teamId : undefined;
      return session;
    },
  },
}));

/**
 * Sign-in for the dashboard: email and password against the users table, JWT sessions.
 * Attempts are throttled per account and per client address (see check-credentials.ts);
 * a session is checked against the user's session version and its team membership on
 * every use (see session-token.ts).
 */
import NextAuth, { CredentialsSignin, type DefaultSession } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { PASSWORD_MAX_LENGTH } from "@switchyard/db";
import { env } from "~/env";
import { db, redis } from "../services";
import { checkCredentials } from "./check-credentials";
import { clientAddress } from "./client-address";
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

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) });

export const { handlers, auth, signIn, signOut, unstable_update: updateSession } = NextAuth({
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
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (raw, request) => {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        try {
          const user = await checkCredentials(
            { db: db(), redis: redis(), prefix: env().SWITCHYARD_QUEUE_PREFIX },
            { ...parsed.data, address: clientAddress(request.headers, env().SWITCHYARD_TRUSTED_PROXIES) },
          );
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        } catch (error) {
          if (error instanceof AppError && error.code === "RATE_LIMITED") {
            throw new SignInThrottled((error.details as { retryAfterSeconds: number }).retryAfterSeconds);
          }
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    // Runs on sign-in and on every use of the session: a password change or a removal
    // from the session's team ends it here.
    jwt: ({ token, user, trigger, session }) => refreshSessionToken(db(), { token, user, trigger, session }),
    session: ({ session, token }) => {
      if (token.sub) session.user.id = token.sub;
      session.teamId = typeof token.teamId === "string" ? token.teamId : undefined;
      return session;
    },
  },
});

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { readInstanceSettings } from "@switchyard/db";
import Link from "next/link";
import {
  OIDC_PROVIDER_ID,
  oidcSignInName,
  signIn,
  SignInThrottled,
  SsoOnlySignIn,
} from "~/server/auth/auth";
import { invitationIn, rememberInvitation } from "~/server/auth/invitation-cookie";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

/** Where to go after signing in: a path of this site (an invitation link, say), never another site. */
const nextPath = (next: string | undefined) =>
  next && /^\/(?![/\\])/.test(next) ? next : "/overview";

async function login(formData: FormData) {
  "use server";
  const next = nextPath(field(formData, "next"));
  const again = next === "/overview" ? "" : `&next=${encodeURIComponent(next)}`;
  try {
    await signIn("credentials", {
      email: field(formData, "email"),
      password: field(formData, "password"),
      redirectTo: next,
    });
  } catch (error) {
    if (error instanceof SignInThrottled)
      redirect(`/login?error=rate_limited&retry=${error.retryAfterSeconds}${again}`);
    if (error instanceof SsoOnlySignIn) redirect(`/login?error=sso_only${again}`);
    if (error instanceof CredentialsSignin) redirect(`/login?error=credentials${again}`);
    if (error instanceof AuthError) redirect(`/login?error=unavailable${again}`);
    throw error;
  }
}

async function loginWithIssuer(formData: FormData) {
  "use server";
  const next = nextPath(field(formData, "next"));
  // Coming from an invitation: someone new may get an account through it.
  const invitation = invitationIn(next);
  if (invitation) await rememberInvitation(invitation);
  await signIn(OIDC_PROVIDER_ID, { redirectTo: next });
}

type Search = {
  error?: string;
  code?: string;
  retry?: string;
  notice?: string;
  next?: string;
  reason?: string;
};

const waitFor = (retry: string | undefined) => {
  const seconds = Number(retry);
  if (!Number.isFinite(seconds) || seconds <= 0) return "a few minutes";
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? "a minute" : `${minutes} minutes`;
};

const problem = ({ error, code, retry, reason }: Search) => {
  if (!error) return undefined;
  if (error === "oidc")
    return reason ? `Single sign-on refused: ${reason}.` : "Single sign-on was refused.";
  if (error === "sso_only" || code === "sso_only")
    return "This installation signs in through single sign-on only.";
  if (error === "rate_limited" || code === "rate_limited")
    return `Too many sign-in attempts. Try again in ${waitFor(retry)}.`;
  if (error === "unavailable" || error === "Configuration" || error === "CallbackRouteError")
    return "Sign-in is unavailable right now. Try again shortly.";
  return "Wrong email or password.";
};

const NOTICES: Record<string, string> = {
  "password-changed": "Your password was changed. Sign in with the new one.",
  "session-ended": "Your session has ended. Sign in again.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const message = problem(search);
  const notice = search.notice ? NOTICES[search.notice] : undefined;
  const issuer = oidcSignInName();
  const settings = await readInstanceSettings(db());
  // Without an issuer "SSO only" cannot hold: passwords stay, so nobody is locked out.
  const passwords = !(issuer && settings.ssoOnly);
  const banner = message ? (
    <p className="error" role="alert">
      {message}
    </p>
  ) : notice ? (
    <p className="muted" role="status">
      {notice}
    </p>
  ) : null;
  return (
    <main className="login">
      {passwords ? (
        <form action={login} className="card login-card">
          <h1>Switchyard</h1>
          <p className="muted">Sign in to your team</p>
          {banner}
          <input type="hidden" name="next" value={nextPath(search.next)} />
          <label>
            Email
            <input name="email" type="email" autoComplete="username" required />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="primary">
            Sign in
          </button>
          {settings.openSignUp ? (
            <p className="muted">
              New here? <Link href="/signup">Create an account</Link>
            </p>
          ) : null}
        </form>
      ) : (
        <div className="card login-card">
          <h1>Switchyard</h1>
          <p className="muted">This installation signs in through {issuer} only.</p>
          {banner}
        </div>
      )}
      {issuer ? (
        <form action={loginWithIssuer} className="card login-card">
          <input type="hidden" name="next" value={nextPath(search.next)} />
          <button type="submit">Continue with {issuer}</button>
        </form>
      ) : null}
    </main>
  );
}

/**
 * An invitation link: shows the team and the role it gives; a signed-in user accepts it,
 * a visitor without an account signs up here (with a password, or through the issuer when
 * one is configured) and joins in the same step, and one with an account signs in first
 * and comes back. Expired, revoked and used links say so; one the signed-in user has just
 * used (a first sign-in through the issuer joins at once) goes on to the dashboard.
 */
import Link from "next/link";
import { redirect } from "next/navigation";
import { AppError } from "@switchyard/core/errors";
import { NewAccountFields } from "~/components/new-account-fields";
import { invitationAcceptedBy, readInstanceSettings } from "@switchyard/db";
import { auth, OIDC_PROVIDER_ID, oidcSignInName, signIn, updateSession } from "~/server/auth/auth";
import { rememberInvitation } from "~/server/auth/invitation-cookie";
import {
  joinByInvitation,
  previewInvitation,
  signUpByInvitation,
} from "~/server/members/member-operations";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

const back = (token: string, error: string) =>
  redirect(`/invite/${encodeURIComponent(token)}?error=${encodeURIComponent(error)}`);

async function accept(formData: FormData) {
  "use server";
  const token = field(formData, "token");
  const session = await auth();
  if (!session?.user.id) redirect(`/login?next=${encodeURIComponent(`/invite/${token}`)}`);
  let teamId: string;
  try {
    ({ teamId } = await joinByInvitation(db(), session.user.id, token));
  } catch (error) {
    if (error instanceof AppError) back(token, error.userMessage);
    throw error;
  }
  await updateSession({ teamId });
  redirect("/overview");
}

async function signUpWithIssuer(formData: FormData) {
  "use server";
  const token = field(formData, "token");
  // A first sign-in of someone new makes their account and joins through this invitation.
  await rememberInvitation(token);
  await signIn(OIDC_PROVIDER_ID, { redirectTo: `/invite/${encodeURIComponent(token)}` });
}

async function signUp(formData: FormData) {
  "use server";
  const token = field(formData, "token");
  const email = field(formData, "email");
  const password = field(formData, "password");
  try {
    await signUpByInvitation(db(), {
      token,
      name: field(formData, "name").trim(),
      email,
      password,
    });
  } catch (error) {
    if (error instanceof AppError) back(token, error.userMessage);
    throw error;
  }
  await signIn("credentials", { email, password, redirectTo: "/overview" });
}

export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const { token } = await params;
  const { error } = await searchParams;
  const session = await auth();
  let invitation;
  let problem: string | undefined;
  try {
    invitation = await previewInvitation(db(), token);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    problem = e.userMessage;
  }
  if (
    !invitation &&
    session?.user.id &&
    (await invitationAcceptedBy(db(), token)) === session.user.id
  )
    redirect("/overview");
  const issuer = oidcSignInName();
  const passwords = !(issuer && (await readInstanceSettings(db())).ssoOnly);

  return (
    <main className="login">
      <div className="card login-card">
        <h1>Switchyard</h1>
        {invitation ? (
          <p>
            You are invited to join{" "}
            <strong data-testid="invite-team">{invitation.team.name}</strong> as{" "}
            <strong data-testid="invite-role">{invitation.role}</strong>
            {invitation.email ? ` (for ${invitation.email})` : ""}.
          </p>
        ) : (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        {invitation && error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        {invitation && session?.user.id ? (
          <form action={accept} className="login-card">
            <input type="hidden" name="token" value={token} />
            <p className="muted">Signed in as {session.user.email}.</p>
            <button type="submit" className="primary">
              Join {invitation.team.name}
            </button>
          </form>
        ) : null}
        {invitation && !session?.user.id && issuer ? (
          <form action={signUpWithIssuer} className="login-card">
            <input type="hidden" name="token" value={token} />
            <button type="submit">Continue with {issuer}</button>
          </form>
        ) : null}
        {invitation && !session?.user.id && passwords ? (
          <>
            <form action={signUp} className="login-card" aria-label="Create your account">
              <h2>Create your account</h2>
              <input type="hidden" name="token" value={token} />
              <NewAccountFields email={invitation.email ?? undefined} />
              <button type="submit" className="primary">
                Create account and join
              </button>
            </form>
            <p className="muted">
              Have an account?{" "}
              <Link href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}>Sign in</Link>,
              then come back to this link.
            </p>
          </>
        ) : null}
        {!invitation ? (
          <p>
            <Link href="/login">Go to sign-in</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}

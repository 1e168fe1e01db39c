/**
 * Signing up without an invitation, while the installation allows it (Settings → Instance):
 * an account with a password (or through the issuer, when one is configured), in no team
 * yet. While sign-up needs an invitation the page says so; with single sign-on only it
 * offers the issuer alone.
 */
import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppError } from "@switchyard/core/errors";
import { NewAccountFields } from "~/components/new-account-fields";
import { readInstanceSettings } from "@switchyard/db";
import { env } from "~/env";
import { auth, OIDC_PROVIDER_ID, oidcSignInName, signIn } from "~/server/auth/auth";
import { clientAddress } from "~/server/auth/client-address";
import { signUpInput } from "~/server/contract/members.types";
import { signUpOpen } from "~/server/members/open-sign-up";
import { db, redis } from "~/server/services";

export const dynamic = "force-dynamic";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

const back = (error: string): never => redirect(`/signup?error=${encodeURIComponent(error)}`);

async function signUp(formData: FormData) {
  "use server";
  const parsed = signUpInput.omit({ token: true }).safeParse({
    name: field(formData, "name"),
    email: field(formData, "email"),
    password: field(formData, "password"),
  });
  if (!parsed.success) return back(parsed.error.issues[0]?.message ?? "check the form");
  const { name, email, password } = parsed.data;
  try {
    await signUpOpen(
      { db: db(), redis: redis(), prefix: env().SWITCHYARD_QUEUE_PREFIX },
      {
        name,
        email,
        password,
        address: clientAddress(await headers(), env().SWITCHYARD_TRUSTED_PROXIES),
      },
    );
  } catch (error) {
    if (error instanceof AppError) back(error.userMessage);
    throw error;
  }
  await signIn("credentials", { email, password, redirectTo: "/overview" });
}

async function signUpWithIssuer() {
  "use server";
  await signIn(OIDC_PROVIDER_ID, { redirectTo: "/overview" });
}

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  const session = await auth();
  if (session?.user.id) redirect("/overview");
  const { error } = await searchParams;
  const settings = await readInstanceSettings(db());
  const issuer = oidcSignInName();
  const passwords = !(issuer && settings.ssoOnly);
  return (
    <main className="login">
      <div className="card login-card">
        <h1>Create an account</h1>
        {!settings.openSignUp ? (
          <>
            <p role="status">
              This installation takes new people by invitation only: open the invitation link
              someone sent you.
            </p>
            <Link href="/login">Go to sign-in</Link>
          </>
        ) : (
          <>
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
            {passwords ? (
              <form action={signUp} className="login-card" aria-label="Create your account">
                <NewAccountFields />
                <button type="submit" className="primary">
                  Create account
                </button>
              </form>
            ) : null}
            {issuer ? (
              <form action={signUpWithIssuer}>
                <button type="submit">Continue with {issuer}</button>
              </form>
            ) : null}
            <p className="muted">
              Have an account? <Link href="/login">Sign in</Link>. You join a team through an
              invitation link, or create one where this installation lets you.
            </p>
          </>
        )}
      </div>
    </main>
  );
}

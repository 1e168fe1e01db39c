/**
 * A password reset link (mailed to the account's address, or handed on by an instance
 * admin): sets a new password for the account it names, once, within the hour; every
 * session signed in before ends, and API tokens made since a reset link was issued are
 * revoked. Used and expired links say so.
 */
import Link from "next/link";
import { redirect } from "next/navigation";
import { AppError } from "@switchyard/core/errors";
import { describePasswordReset } from "@switchyard/db";
import { resetPassword } from "~/server/members/password-reset";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

async function setPassword(formData: FormData) {
  "use server";
  const token = field(formData, "token");
  const password = field(formData, "password");
  if (password !== field(formData, "again"))
    redirect(
      `/reset/${encodeURIComponent(token)}?error=${encodeURIComponent("the two passwords differ")}`,
    );
  try {
    await resetPassword(db(), { token, password });
  } catch (error) {
    if (error instanceof AppError)
      redirect(
        `/reset/${encodeURIComponent(token)}?error=${encodeURIComponent(error.userMessage)}`,
      );
    throw error;
  }
  redirect("/login?notice=password-changed");
}

export default async function ResetPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const { token } = await params;
  const { error } = await searchParams;
  let target;
  let problem: string | undefined;
  try {
    target = await describePasswordReset(db(), token);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    problem = e.userMessage;
  }
  return (
    <main className="login">
      <div className="card login-card">
        <h1>Set a new password</h1>
        {target ? (
          <form action={setPassword} className="login-card">
            <p>
              For <strong>{target.email}</strong>. Setting it signs you out everywhere and revokes
              the API tokens made since a reset link was issued for this account.
            </p>
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="username" autoComplete="username" value={target.email} />
            <label>
              New password (at least 10 characters)
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={10}
                maxLength={1024}
                required
              />
            </label>
            <label>
              New password again
              <input
                name="again"
                type="password"
                autoComplete="new-password"
                minLength={10}
                maxLength={1024}
                required
              />
            </label>
            <button type="submit" className="primary">
              Set password
            </button>
          </form>
        ) : (
          <>
            <p className="error" role="alert">
              {problem}
            </p>
            <Link href="/login">Go to sign-in</Link>
          </>
        )}
      </div>
    </main>
  );
}

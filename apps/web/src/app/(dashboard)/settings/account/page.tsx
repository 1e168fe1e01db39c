/**
 * Settings → Account: who the signed-in user is (and whether their email is verified), and
 * their password, for accounts that have one.
 */
import { auth } from "~/server/auth/auth";
import { accountOf } from "~/server/account/account";
import { db } from "~/server/services";
import { PasswordForm } from "./password-form";

export default async function AccountPage() {
  const session = await auth();
  const account = session?.user.id ? await accountOf(db(), session.user.id) : undefined;
  return (
    <>
      <h1>Account</h1>
      {account ? (
        <p data-testid="account-email">
          {account.name} <span className="muted">{account.email}</span>{" "}
          <span className="muted small">
            {account.emailVerified
              ? "(email verified)"
              : "(email not verified: whoever shows this address is theirs, through single sign-on that verifies it or a reset link mailed to it, takes this account over)"}
          </span>
        </p>
      ) : null}
      <h2>Change password</h2>
      <p className="muted">
        Changing your password signs you out everywhere, here included, and revokes the API tokens
        made since a password reset link was last issued for your account (if one was).
      </p>
      <PasswordForm />
    </>
  );
}

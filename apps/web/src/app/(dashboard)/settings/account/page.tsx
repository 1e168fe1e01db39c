import { PasswordForm } from "./password-form";

export default function AccountPage() {
  return (
    <>
      <h1>Account</h1>
      <h2>Change password</h2>
      <p className="muted">Changing your password signs you out everywhere, here included.</p>
      <PasswordForm />
    </>
  );
}

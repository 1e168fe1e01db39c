/** The fields of a new account with a password: name, email and password, within the server's limits. */
export function NewAccountFields({ email }: { email?: string }) {
  return (
    <>
      <label>
        Name
        <input name="name" autoComplete="name" required maxLength={120} />
      </label>
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={320}
          defaultValue={email}
        />
      </label>
      <label>
        Password (at least 10 characters)
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          maxLength={1024}
          required
        />
      </label>
    </>
  );
}

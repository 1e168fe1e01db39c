import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "~/server/auth/auth";

export const dynamic = "force-dynamic";

const field = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

async function login(formData: FormData) {
  "use server";
  try {
    await signIn("credentials", {
      email: field(formData, "email"),
      password: field(formData, "password"),
      redirectTo: "/workflows",
    });
  } catch (error) {
    if (error instanceof AuthError) redirect("/login?error=credentials");
    throw error;
  }
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <main className="login">
      <form action={login} className="card login-card">
        <h1>Switchyard</h1>
        <p className="muted">Sign in to your team</p>
        {error ? (
          <p className="error" role="alert">
            Wrong email or password.
          </p>
        ) : null}
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
      </form>
    </main>
  );
}

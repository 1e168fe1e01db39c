"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

export function PasswordForm() {
  const trpc = useTRPC();
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      // Every session of the user has just ended, this one too.
      onSuccess: () => window.location.assign("/login?notice=password-changed"),
    }),
  );
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const mismatch = again !== "" && again !== next;

  return (
    <form
      className="card password-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!mismatch) change.mutate({ currentPassword: current, newPassword: next });
      }}
    >
      <label>
        Current password
        <input
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          required
        />
      </label>
      <label>
        New password
        <input
          type="password"
          autoComplete="new-password"
          minLength={10}
          value={next}
          onChange={(e) => setNext(e.target.value)}
          required
        />
      </label>
      <label>
        New password again
        <input
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          required
        />
      </label>
      {mismatch ? <p className="error">The two new passwords differ.</p> : null}
      {change.error ? (
        <p className="error" role="alert">
          {change.error.message}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={change.isPending || mismatch}>
        Change password
      </button>
    </form>
  );
}

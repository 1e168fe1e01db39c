/**
 * The shared states of a page or panel: loading, empty (with what to do next) and error
 * (with what went wrong and what to try), so every page says the same things the same way.
 */
import type { ReactNode } from "react";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="state state-loading muted" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state state-empty card">
      <p className="state-title">{title}</p>
      {children ? <div className="muted">{children}</div> : null}
      {action ? <div className="state-action">{action}</div> : null}
    </div>
  );
}

/** `error`: anything thrown or returned by a query; its message is shown, never a stack. */
export function ErrorState({
  title = "Something went wrong",
  error,
  retry,
}: {
  title?: string;
  error?: unknown;
  retry?: () => void;
}) {
  const message =
    error instanceof Error ? error.message : typeof error === "string" ? error : undefined;
  return (
    <div className="state state-error card" role="alert">
      <p className="state-title error">{title}</p>
      {message ? <p>{message}</p> : null}
      <p className="muted small">
        Try again; if it keeps failing, check that the server and its database are up.
      </p>
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

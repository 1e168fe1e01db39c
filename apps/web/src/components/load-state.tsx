"use client";
/**
 * What a list shows while its query loads or after it failed: "Loading <what>…", or the
 * error with what to do. Nothing once the data is there.
 */
export function LoadState(props: {
  query: { isPending: boolean; error: { message: string } | null };
  what: string;
}) {
  if (props.query.error)
    return (
      <p className="error" role="alert">
        Could not load {props.what}: {props.query.error.message}. Reload the page to try again.
      </p>
    );
  return props.query.isPending ? <p className="muted">Loading {props.what}…</p> : null;
}

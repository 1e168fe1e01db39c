"use client";
/**
 * What issuing a password reset link gave: where it was mailed, or (an instance admin on a
 * server without SMTP) the link itself, shown this once, to be sent to the person's own
 * address only.
 */
export function ResetLinkResult({
  issued,
}: {
  issued: { mailedTo: string | null; path: string | null; expiresAt: Date } | undefined;
}) {
  if (!issued) return null;
  return (
    <div className="card new-token" role="status">
      {issued.mailedTo ? (
        <>
          A link to set a new password was mailed to {issued.mailedTo}; it works once, within the
          hour.
        </>
      ) : (
        <>
          Send this link to the person, at their own address only; it will not be shown again and
          works once, until {issued.expiresAt.toLocaleTimeString()}:
          <pre className="output" data-testid="reset-link">
            {`${window.location.origin}${issued.path}`}
          </pre>
        </>
      )}
    </div>
  );
}

"use client";
/**
 * A connector's credential as anyone may see it (kind, fingerprint, who set it and when,
 * expiry, last use, whether it needs a reconnect), with the forms to set, replace and
 * revoke it: the team's by admins, your own account's where each member uses theirs (and,
 * for admins, the client secret of an OAuth connector's registered client). A
 * value is typed into a password field that React does not control, sent once and cleared:
 * it is never shown or kept in the page.
 */
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";
import { ClientSecretForm } from "./client-secret-form";
import { FormAlert, formError } from "./form-parts";
import { nameOf, type Listing } from "./listing";
import { useConnectorsRefresh } from "./use-connectors-refresh";

type Credential = NonNullable<Listing["teamCredential"]>;

const when = (d: Date | null) => (d ? d.toLocaleString() : "never");

function CredentialFacts(props: {
  credential: Credential;
  userId: string | undefined;
  /** A machine-to-machine connector: a refusal is of its secret or key at the token endpoint. */
  machine?: boolean;
}) {
  const c = props.credential;
  return (
    <dl className="facts small credential-facts" data-credential>
      <dt>Kind</dt>
      <dd>
        {c.kind}{" "}
        {c.status === "needs_reconnect" ? (
          <span className="badge badge-failed">needs reconnect</span>
        ) : c.status === "needs_more_access" ? (
          <span className="badge badge-failed" data-needs-more-access>
            needs more access
          </span>
        ) : (
          <span className="badge badge-succeeded">active</span>
        )}
      </dd>
      {c.status === "needs_reconnect" ? (
        <>
          <dt>Why</dt>
          <dd data-reconnect-reason={c.reconnectReason ?? ""}>
            {c.reconnectReason === "destination_changed"
              ? "where the connector sends it (URL, command, arguments, environment, headers or authorization server) changed since it was set: it is not sent there until it is set again"
              : props.machine
                ? "the authorization server refused its client secret or key: set it again"
                : "its authorization expired or was revoked"}
          </dd>
        </>
      ) : null}
      {c.status === "needs_more_access" ? (
        <>
          <dt>Why</dt>
          <dd data-required-scope={c.requiredScope ?? ""}>
            its server refused a call for want of more access: reconnecting asks for the scope{" "}
            <code>{c.requiredScope}</code>
          </dd>
        </>
      ) : null}
      <dt>Fingerprint</dt>
      <dd>
        <code data-fingerprint>{c.fingerprint}</code>
      </dd>
      <dt>Set by</dt>
      <dd>
        {c.setBy === null ? "unknown" : c.setBy === props.userId ? "you" : <code>{c.setBy}</code>}
      </dd>
      <dt>Set</dt>
      <dd>{when(c.setAt)}</dd>
      <dt>Expires</dt>
      <dd>{when(c.expiresAt)}</dd>
      <dt>Last used</dt>
      <dd>{when(c.lastUsedAt)}</dd>
    </dl>
  );
}

function SecretForm(props: {
  label: string;
  submit: string;
  pending: boolean;
  /** What is asked for: an API key by default; a client secret, or a PEM private key (several lines). */
  what?: "client_secret" | "private_key";
  onSubmit: (value: string, expiresAt: Date | null, clear: () => void) => void;
}) {
  return (
    <form
      className="secret-form"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const field = (name: string) => {
          const value = data.get(name);
          return typeof value === "string" ? value : "";
        };
        const expires = field("expires");
        props.onSubmit(field("value"), expires ? new Date(expires) : null, () => form.reset());
      }}
    >
      {props.what === "private_key" ? (
        <label>
          Private key (PEM)
          <textarea
            name="value"
            rows={4}
            autoComplete="off"
            spellCheck={false}
            required
            placeholder="-----BEGIN PRIVATE KEY-----"
          />
        </label>
      ) : (
        <label>
          {props.what === "client_secret" ? "Client secret" : "API key or token"}
          <input name="value" type="password" autoComplete="off" spellCheck={false} required />
        </label>
      )}
      <label>
        Expires (optional)
        <input name="expires" type="date" />
      </label>
      <button type="submit" className="primary" disabled={props.pending}>
        {props.submit}
      </button>
    </form>
  );
}

export function CredentialPanel(props: {
  listing: Listing;
  canAdmin: boolean;
  userId: string | undefined;
}) {
  const { listing, canAdmin } = props;
  const trpc = useTRPC();
  const refresh = useConnectorsRefresh();
  const set = useMutation(trpc.connectors.setCredential.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(
    trpc.connectors.revokeCredential.mutationOptions({ onSuccess: refresh }),
  );
  // OAuth: the server hands out the authorization URL; the browser goes there and comes back to the callback.
  const begin = useMutation(
    trpc.connectors.beginOAuth.mutationOptions({
      onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl),
    }),
  );
  const error = formError(set.error ?? revoke.error ?? begin.error);
  const name = nameOf(listing);
  // Enterprise: nothing to connect; the IdP grants each member's access from their sign-in.
  if (listing.definition.auth === "enterprise")
    return (
      <section className="credential" aria-label={`Members' access to ${name}`}>
        <h4>Members&apos; access</h4>
        <p className="muted small">
          Each member&apos;s access is granted by {String(listing.definition.idp_issuer)} from their
          sign-in to Switchyard there: nobody connects it.
        </p>
        {canAdmin && listing.source === "team" ? <ClientSecretForm listing={listing} /> : null}
      </section>
    );
  if (!listing.needsCredential) return <p className="muted small">Needs no credential.</p>;

  const scope = listing.definition.credential_mode === "member" ? "member" : "team";
  const oauth = listing.definition.auth === "oauth";
  const credential = scope === "team" ? listing.teamCredential : listing.myCredential;
  const mayChange = scope === "member" || canAdmin;
  const save = (value: string, expiresAt: Date | null, clear: () => void) =>
    set.mutate(
      { id: listing.id, scope, value, expiresAt },
      {
        onSuccess: () => {
          clear();
          // The value stays out of the mutation cache too.
          set.reset();
        },
      },
    );
  const label = scope === "team" ? `Team credential of ${name}` : `Your account on ${name}`;

  return (
    <section className="credential" aria-label={label}>
      <h4>{scope === "team" ? "Team credential" : "Your account"}</h4>
      {scope === "member" ? (
        <p className="muted small">
          Runs use the account of whoever starts them: {listing.memberCredentials} member
          {listing.memberCredentials === 1 ? " has" : "s have"} connected theirs
          {listing.memberCredentialsToReconnect > 0
            ? `, ${listing.memberCredentialsToReconnect} of them must connect again`
            : ""}
          .
        </p>
      ) : null}
      {listing.definition.auth === "client_credentials" ? (
        <p className="muted small" data-client-credentials>
          No one signs in: the worker obtains tokens for the client{" "}
          <code>{String(listing.definition.oauth_client_id)}</code> itself, with the{" "}
          {listing.definition.oauth_client_auth === "private_key_jwt"
            ? "private key"
            : "client secret"}{" "}
          stored here.
        </p>
      ) : null}
      {credential ? (
        <CredentialFacts
          credential={credential}
          userId={props.userId}
          machine={listing.definition.auth === "client_credentials"}
        />
      ) : (
        <p className="muted small" data-credential-missing>
          {scope === "team"
            ? "Not set: runs cannot reach it until an admin sets it."
            : "You have not connected your account."}
        </p>
      )}
      {mayChange && oauth ? (
        <button
          type="button"
          className="primary"
          disabled={begin.isPending}
          onClick={() => begin.mutate({ id: listing.id, scope })}
        >
          {credential?.status === "needs_reconnect"
            ? "Reconnect"
            : credential?.status === "needs_more_access"
              ? "Reconnect for more access"
              : credential
                ? "Connect again"
                : scope === "team"
                  ? "Connect with OAuth"
                  : "Connect my account"}
        </button>
      ) : null}
      {canAdmin && oauth && listing.definition.oauth_client_id && listing.source === "team" ? (
        <ClientSecretForm listing={listing} />
      ) : null}
      {mayChange && !oauth ? (
        <SecretForm
          label={label}
          submit={
            credential ? "Replace" : scope === "team" ? "Set credential" : "Connect my account"
          }
          pending={set.isPending}
          onSubmit={save}
          {...(listing.definition.auth === "client_credentials"
            ? {
                what:
                  listing.definition.oauth_client_auth === "private_key_jwt"
                    ? ("private_key" as const)
                    : ("client_secret" as const),
              }
            : {})}
        />
      ) : null}
      {mayChange && credential ? (
        <button
          type="button"
          className="link"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate({ id: listing.id, scope })}
        >
          {scope === "team" ? "Revoke the team credential" : "Revoke mine"}
        </button>
      ) : null}
      <FormAlert error={error} fields={[]} />
    </section>
  );
}

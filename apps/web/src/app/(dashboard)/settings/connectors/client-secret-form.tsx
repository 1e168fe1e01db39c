"use client";
/**
 * The client secret of an OAuth connector's registered client (oauth_client_id), for admins:
 * whether one is set, a password field to set or replace it and a button to clear it. The
 * value is sent once and the field cleared; the page never gets it back.
 */
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";
import { FormAlert, formError } from "./form-parts";
import { nameOf, type Listing } from "./listing";
import { useConnectorsRefresh } from "./use-connectors-refresh";

export function ClientSecretForm(props: { listing: Listing }) {
  const { listing } = props;
  const trpc = useTRPC();
  const refresh = useConnectorsRefresh();
  const set = useMutation(trpc.connectors.setClientSecret.mutationOptions({ onSuccess: refresh }));
  const isSet = listing.clientSecret === "set";
  return (
    <form
      className="secret-form"
      aria-label={`OAuth client secret of ${nameOf(listing)}`}
      data-client-secret={listing.clientSecret}
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const value = new FormData(form).get("secret");
        if (typeof value !== "string" || value === "") return;
        set.mutate(
          { id: listing.id, secret: value },
          {
            onSuccess: () => {
              form.reset();
              // The value stays out of the mutation cache too.
              set.reset();
            },
          },
        );
      }}
    >
      <p className="muted small">
        Client secret of <code>{String(listing.definition.oauth_client_id)}</code>:{" "}
        {isSet ? "set" : "not set"}. A server that authenticates its clients (GitHub does) needs it
        to hand out tokens.
      </p>
      <label>
        Client secret
        <input name="secret" type="password" autoComplete="off" spellCheck={false} required />
      </label>
      <button type="submit" disabled={set.isPending}>
        {isSet ? "Replace secret" : "Set secret"}
      </button>
      {isSet ? (
        <button
          type="button"
          className="link"
          disabled={set.isPending}
          onClick={() => set.mutate({ id: listing.id, secret: null })}
        >
          Clear the client secret
        </button>
      ) : null}
      <FormAlert error={formError(set.error)} fields={[]} />
    </form>
  );
}

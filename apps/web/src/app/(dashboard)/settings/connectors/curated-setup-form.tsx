"use client";
/**
 * Sets up a catalog connector for the team (or changes how it is set up): how it signs in
 * (the ways the vendor offers, the first the default), an OAuth client id where the vendor
 * registers none on the fly, the lanes that may use it (every lane unless told) and whose
 * account runs use.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { FieldError, FormFooter, formError, invalidProps, LaneChoice } from "./form-parts";
import { useConnectorsRefresh } from "./use-connectors-refresh";
import { nameOf, type Listing } from "./listing";

const FORM = "setup";
const FIELDS = ["auth", "oauth_client_id", "lanes", "credential_mode", "enabled"] as const;
const AUTH_NAMES: Record<string, string> = {
  oauth: "OAuth (sign in with the vendor)",
  bearer: "An API key or token",
};

export function CuratedSetupForm(props: {
  listing: Listing;
  teamLanes: string[];
  onDone: () => void;
}) {
  const { listing } = props;
  const def = listing.definition;
  const trpc = useTRPC();
  const setUp = useMutation(
    trpc.connectors.setUp.mutationOptions({ onSuccess: useConnectorsRefresh(props.onDone) }),
  );
  const [auth, setAuth] = useState(
    typeof def.auth === "string" && listing.curatedAuth.includes(def.auth)
      ? def.auth
      : (listing.curatedAuth[0] ?? "bearer"),
  );
  const [clientId, setClientId] = useState(
    typeof def.oauth_client_id === "string" ? def.oauth_client_id : "",
  );
  const [lanes, setLanes] = useState<string[]>(
    Array.isArray(def.lanes) ? (def.lanes as string[]) : ["*"],
  );
  const [mode, setMode] = useState(def.credential_mode === "member" ? "member" : "team");
  const [enabled, setEnabled] = useState(
    listing.source === "curated" ? true : def.enabled !== false,
  );
  const error = formError(setUp.error);
  const name = nameOf(listing);

  return (
    <form
      className="card settings-form"
      aria-label={`Set up ${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        setUp.mutate({
          id: listing.id,
          choice: {
            auth,
            lanes,
            credential_mode: mode,
            enabled,
            ...(auth === "oauth" && clientId.trim() ? { oauth_client_id: clientId.trim() } : {}),
          },
        });
      }}
    >
      <h3>Set up {name}</h3>
      <fieldset className="choice-group" {...invalidProps(FORM, "auth", error)}>
        <legend>Sign-in</legend>
        {listing.curatedAuth.map((a) => (
          <label key={a} className="inline">
            <input
              type="radio"
              name={`auth-${listing.id}`}
              value={a}
              checked={auth === a}
              onChange={() => setAuth(a)}
            />{" "}
            {AUTH_NAMES[a] ?? a}
          </label>
        ))}
      </fieldset>
      <FieldError form={FORM} field="auth" error={error} />
      {auth === "oauth" ? (
        <div className="field">
          <label>
            OAuth client id (when {name} registers none on the fly)
            <input
              value={clientId}
              onChange={(e) => setClientId(e.target.value)}
              {...invalidProps(FORM, "oauth_client_id", error)}
            />
          </label>
          <FieldError form={FORM} field="oauth_client_id" error={error} />
        </div>
      ) : null}
      <LaneChoice
        legend="Lanes whose runs may use it"
        lanes={props.teamLanes}
        chosen={lanes}
        onChange={setLanes}
        every
        describedBy={invalidProps(FORM, "lanes", error)}
      />
      <FieldError form={FORM} field="lanes" error={error} />
      <label>
        Whose account runs use
        <select value={mode} onChange={(e) => setMode(e.target.value)}>
          <option value="team">the team&apos;s (one credential, set by admins)</option>
          <option value="member">each member&apos;s own</option>
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />{" "}
        Enabled
      </label>
      <FormFooter
        error={error}
        fields={FIELDS}
        submit={listing.source === "curated" ? "Set up" : "Save changes"}
        pending={setUp.isPending}
        onCancel={props.onDone}
      />
    </form>
  );
}

"use client";
/**
 * The Instance page's form: who may create teams, sign-up without an invitation, SSO only
 * (offered only when the server has an issuer), the longest API token lifetime (empty: no
 * limit) and whether team-authored stdio connectors may run any command.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";
import {
  FieldError,
  FormAlert,
  formError,
  invalidProps,
  SaveActions,
} from "../connectors/form-parts";

const FORM = "instance";
const FIELDS = [
  "teamCreation",
  "openSignUp",
  "ssoOnly",
  "maxTokenLifetimeDays",
  "allowAnyConnectorCommand",
] as const;

type Draft = {
  teamCreation: "instance_admins" | "anyone";
  openSignUp: boolean;
  ssoOnly: boolean;
  lifetime: string;
  allowAnyConnectorCommand: boolean;
};

export function InstanceForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.instance.settings.queryOptions());
  const [draft, setDraft] = useState<Draft | undefined>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    const s = settings.data;
    setDraft({
      teamCreation: s.teamCreation,
      openSignUp: s.openSignUp,
      ssoOnly: s.ssoOnly,
      lifetime: s.maxTokenLifetimeDays === null ? "" : String(s.maxTokenLifetimeDays),
      allowAnyConnectorCommand: s.allowAnyConnectorCommand,
    });
  }, [settings.data]);
  const update = useMutation(
    trpc.instance.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.instance.settings.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.instance.audit.infiniteQueryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.instance.me.queryKey() });
      },
    }),
  );
  const error = formError(update.error);

  if (settings.isPending || (settings.data && !draft)) return <p className="muted">Loading…</p>;
  if (settings.error)
    return (
      <p className="error" role="alert">
        {settings.error.message}
      </p>
    );
  const d = draft!;
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...d, ...patch });
  };
  const sso = settings.data.ssoConfigured;
  return (
    <form
      className="card settings-form"
      aria-label="Instance settings"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        update.mutate({
          teamCreation: d.teamCreation,
          openSignUp: d.openSignUp,
          ssoOnly: d.ssoOnly,
          maxTokenLifetimeDays: d.lifetime.trim() === "" ? null : Number(d.lifetime),
          allowAnyConnectorCommand: d.allowAnyConnectorCommand,
        });
      }}
    >
      <fieldset className="field" {...invalidProps(FORM, "teamCreation", error)}>
        <legend>Who may create teams</legend>
        <label>
          <input
            type="radio"
            name="teamCreation"
            checked={d.teamCreation === "instance_admins"}
            onChange={() => set({ teamCreation: "instance_admins" })}
          />{" "}
          Instance admins only
        </label>
        <label>
          <input
            type="radio"
            name="teamCreation"
            checked={d.teamCreation === "anyone"}
            onChange={() => set({ teamCreation: "anyone" })}
          />{" "}
          Anyone signed in (they become the team&apos;s owner)
        </label>
        <FieldError form={FORM} field="teamCreation" error={error} />
      </fieldset>
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={d.openSignUp}
            onChange={(e) => set({ openSignUp: e.target.checked })}
            aria-describedby="instance-signup-help"
          />{" "}
          People may sign up without an invitation
        </label>
        <p id="instance-signup-help" className="muted small">
          On: the login page links to a sign-up page, and a first single sign-on of someone unknown
          makes their account. Off: new people come in through an invitation link only. Either way,
          an email is verified only by a link sent to it or an issuer that verified it.
        </p>
        <FieldError form={FORM} field="openSignUp" error={error} />
      </div>
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={d.ssoOnly}
            disabled={!sso && !d.ssoOnly}
            onChange={(e) => set({ ssoOnly: e.target.checked })}
            aria-describedby="instance-sso-help"
            {...invalidProps(FORM, "ssoOnly", error)}
          />{" "}
          Single sign-on only (passwords refused)
        </label>
        <p id="instance-sso-help" className="muted small">
          {sso
            ? "Turn it on only after signing in through single sign-on yourself. It holds only while the server has an issuer: removing SWITCHYARD_OIDC_* lets passwords in again."
            : "This server has no single sign-on issuer (SWITCHYARD_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET), so passwords stay allowed."}
        </p>
        <FieldError form={FORM} field="ssoOnly" error={error} />
      </div>
      <div className="field">
        <label>
          Longest API token lifetime, in days
          <input
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={d.lifetime}
            onChange={(e) => set({ lifetime: e.target.value })}
            placeholder="no limit"
            aria-describedby="instance-lifetime-help"
            {...invalidProps(FORM, "maxTokenLifetimeDays", error)}
          />
        </label>
        <p id="instance-lifetime-help" className="muted small">
          Empty: no limit. A token asked for without an expiry gets this one; a longer one is
          refused. It applies to tokens made from now on.
        </p>
        <FieldError form={FORM} field="maxTokenLifetimeDays" error={error} />
      </div>
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={d.allowAnyConnectorCommand}
            onChange={(e) => set({ allowAnyConnectorCommand: e.target.checked })}
            aria-describedby="instance-command-help"
          />{" "}
          Team-authored stdio connectors may run any command
        </label>
        <p id="instance-command-help" className="muted small">
          Off: a team&apos;s own stdio connectors run only commands from the connectors folder the
          operator installs.
        </p>
        <FieldError form={FORM} field="allowAnyConnectorCommand" error={error} />
      </div>
      <FormAlert error={error} fields={FIELDS} />
      <SaveActions pending={update.isPending} saved={saved} />
    </form>
  );
}

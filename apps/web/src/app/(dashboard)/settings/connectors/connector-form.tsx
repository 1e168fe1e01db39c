"use client";
/**
 * Adds a team-authored connector or changes one: stdio (command, arguments, environment,
 * the variable the credential goes in, its network) or http (URL, how it signs in, headers), its lanes
 * and whose account runs use. What the form does not show (tool rules) is kept as it was.
 * A refusal is shown at the field the server names.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { FieldError, FormFooter, formError, invalidProps, LaneChoice } from "./form-parts";
import { useConnectorsRefresh } from "./use-connectors-refresh";

type Definition = Record<string, unknown>;

const FIELDS = [
  "id",
  "name",
  "description",
  "transport",
  "command",
  "args",
  "env",
  "credential_env",
  "network",
  "url",
  "auth",
  "oauth_client_id",
  "idp_issuer",
  "idp_client_id",
  "oauth_client_auth",
  "headers",
  "lanes",
  "credential_mode",
  "initial_tools",
  "enabled",
] as const;
const FORM = "connector";

const text = (def: Definition | undefined, key: string) => {
  const value = def?.[key];
  return typeof value === "string" ? value : "";
};
const list = (def: Definition | undefined, key: string) =>
  Array.isArray(def?.[key]) ? (def[key] as string[]) : [];
const pairs = (def: Definition | undefined, key: string, sep: string) =>
  Object.entries((def?.[key] as Record<string, string> | undefined) ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join("\n");
const lines = (value: string) =>
  value
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
/** `KEY=value` (or `Name: value`) lines as a record; a line without the separator is a key with an empty value. */
const record = (value: string, sep: string) =>
  Object.fromEntries(
    lines(value).map((l) => {
      const at = l.indexOf(sep);
      return at < 0 ? [l, ""] : [l.slice(0, at).trim(), l.slice(at + sep.length).trim()];
    }),
  );

const draftOf = (def: Definition | undefined) => ({
  id: text(def, "id"),
  name: text(def, "name"),
  description: text(def, "description"),
  transport: text(def, "transport") === "http" ? ("http" as const) : ("stdio" as const),
  command: text(def, "command"),
  args: list(def, "args").join("\n"),
  env: pairs(def, "env", "="),
  credential_env: text(def, "credential_env"),
  /** "": as the worker's steps (SWITCHYARD_STEP_NETWORK); "on" or "off": the connector's own. */
  network: def?.network === true ? "on" : def?.network === false ? "off" : "",
  url: text(def, "url"),
  auth: text(def, "auth") || "bearer",
  oauth_client_id: text(def, "oauth_client_id"),
  idp_issuer: text(def, "idp_issuer"),
  idp_client_id: text(def, "idp_client_id"),
  oauth_client_auth: text(def, "oauth_client_auth") || "client_secret",
  headers: pairs(def, "headers", ": "),
  lanes: def ? list(def, "lanes") : ["operator"],
  credential_mode: text(def, "credential_mode") || "team",
  initial_tools: list(def, "initial_tools").join(", "),
  enabled: def ? def.enabled !== false : true,
});
type Draft = ReturnType<typeof draftOf>;

/** The definition the draft stands for; fields of the other transport are left out, what the form does not show is kept. */
const definitionOf = (draft: Draft, base: Definition | undefined): Definition => {
  const { tool_allow } = base ?? {};
  const common = {
    id: draft.id,
    name: draft.name,
    description: draft.description,
    lanes: draft.lanes,
    credential_mode: draft.credential_mode,
    initial_tools: draft.initial_tools
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== ""),
    enabled: draft.enabled,
    ...(tool_allow === undefined ? {} : { tool_allow }),
  };
  if (draft.transport === "stdio") {
    return {
      ...common,
      transport: "stdio",
      command: draft.command,
      args: draft.args.split("\n").filter((a) => a.trim() !== ""),
      env: record(draft.env, "="),
      ...(draft.credential_env.trim() ? { credential_env: draft.credential_env.trim() } : {}),
      ...(draft.network === "" ? {} : { network: draft.network === "on" }),
    };
  }
  const headers = record(draft.headers, ":");
  return {
    ...common,
    transport: "http",
    url: draft.url.trim(),
    auth: draft.auth,
    ...((draft.auth === "oauth" ||
      draft.auth === "enterprise" ||
      draft.auth === "client_credentials") &&
    draft.oauth_client_id.trim()
      ? { oauth_client_id: draft.oauth_client_id.trim() }
      : {}),
    ...(draft.auth === "enterprise"
      ? {
          ...(draft.idp_issuer.trim() ? { idp_issuer: draft.idp_issuer.trim() } : {}),
          ...(draft.idp_client_id.trim() ? { idp_client_id: draft.idp_client_id.trim() } : {}),
        }
      : {}),
    ...(draft.auth === "client_credentials" ? { oauth_client_auth: draft.oauth_client_auth } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
};

export function ConnectorForm(props: {
  teamLanes: string[];
  editing?: Definition;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const done = useConnectorsRefresh(props.onDone);
  const create = useMutation(trpc.connectors.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.connectors.update.mutationOptions({ onSuccess: done }));
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.editing));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft({ ...draft, [key]: value });
  const error = formError(create.error ?? update.error);
  const bad = (field: string) => invalidProps(FORM, field, error);
  const editing = props.editing !== undefined;
  const title = editing ? `Change ${text(props.editing, "name")}` : "Add a connector";

  return (
    <form
      className="card settings-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        const definition = definitionOf(draft, props.editing);
        if (editing) update.mutate({ id: draft.id, definition });
        else create.mutate({ definition });
      }}
    >
      <h3>{title}</h3>
      <div className="form-grid">
        <div className="field">
          <label>
            Id
            <input
              value={draft.id}
              onChange={(e) => set("id", e.target.value)}
              readOnly={editing}
              required
              placeholder="files"
              {...bad("id")}
            />
          </label>
          <FieldError form={FORM} field="id" error={error} />
        </div>
        <div className="field">
          <label>
            Name
            <input
              value={draft.name}
              onChange={(e) => set("name", e.target.value)}
              required
              placeholder="Files"
              {...bad("name")}
            />
          </label>
          <FieldError form={FORM} field="name" error={error} />
        </div>
      </div>
      <div className="field">
        <label>
          Description
          <input
            value={draft.description}
            onChange={(e) => set("description", e.target.value)}
            {...bad("description")}
          />
        </label>
        <FieldError form={FORM} field="description" error={error} />
      </div>
      <fieldset className="choice-group" {...bad("transport")}>
        <legend>Transport</legend>
        {(["stdio", "http"] as const).map((t) => (
          <label key={t} className="inline">
            <input
              type="radio"
              name="transport"
              value={t}
              checked={draft.transport === t}
              onChange={() => set("transport", t)}
            />{" "}
            {t === "stdio" ? "stdio (a local program)" : "http (a remote server)"}
          </label>
        ))}
      </fieldset>
      <FieldError form={FORM} field="transport" error={error} />
      {draft.transport === "stdio" ? (
        <>
          <div className="field">
            <label>
              Command
              <input
                value={draft.command}
                onChange={(e) => set("command", e.target.value)}
                required
                placeholder="/opt/connectors/node_modules/.bin/mcp-server-filesystem"
                aria-describedby={bad("command")["aria-describedby"] ?? "connector-command-hint"}
                {...(bad("command")["aria-invalid"] ? { "aria-invalid": true } : {})}
              />
            </label>
            <p id="connector-command-hint" className="muted small">
              A program from the connectors folder (/opt/connectors/…), or node, python3, sh or bash
              with a script from it as the first argument.
            </p>
            <FieldError form={FORM} field="command" error={error} />
          </div>
          <div className="field">
            <label>
              Arguments, one per line
              <textarea
                rows={3}
                value={draft.args}
                onChange={(e) => set("args", e.target.value)}
                placeholder="/opt/connectors/server.js"
                {...bad("args")}
              />
            </label>
            <FieldError form={FORM} field="args" error={error} />
          </div>
          <div className="field">
            <label>
              Environment, one NAME=value per line (no secrets)
              <textarea
                rows={2}
                value={draft.env}
                onChange={(e) => set("env", e.target.value)}
                placeholder="LOG_LEVEL=info"
                {...bad("env")}
              />
            </label>
            <FieldError form={FORM} field="env" error={error} />
          </div>
          <div className="field">
            <label>
              Credential variable (the credential reaches the server in it)
              <input
                value={draft.credential_env}
                onChange={(e) => set("credential_env", e.target.value)}
                placeholder="FILES_TOKEN"
                {...bad("credential_env")}
              />
            </label>
            <FieldError form={FORM} field="credential_env" error={error} />
          </div>
          <div className="field">
            <label>
              Network
              <select
                value={draft.network}
                onChange={(e) => set("network", e.target.value)}
                {...bad("network")}
              >
                <option value="">as steps have (the workers&apos; setting)</option>
                <option value="on">
                  on: it reaches its service (never link-local or metadata addresses)
                </option>
                <option value="off">off: it needs none</option>
              </select>
            </label>
            <FieldError form={FORM} field="network" error={error} />
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label>
              URL
              <input
                type="url"
                value={draft.url}
                onChange={(e) => set("url", e.target.value)}
                required
                placeholder="https://mcp.example.com/mcp"
                {...bad("url")}
              />
            </label>
            <FieldError form={FORM} field="url" error={error} />
          </div>
          <div className="field">
            <label>
              Sign-in
              <select
                value={draft.auth}
                onChange={(e) => set("auth", e.target.value)}
                {...bad("auth")}
              >
                <option value="none">none</option>
                <option value="bearer">a bearer token (the stored credential)</option>
                <option value="oauth">OAuth</option>
                <option value="client_credentials">
                  OAuth client credentials (the team's own client, no person signs in)
                </option>
                <option value="enterprise">
                  enterprise: each member's access granted by the IdP they sign in with
                </option>
              </select>
            </label>
            <FieldError form={FORM} field="auth" error={error} />
          </div>
          {draft.auth === "enterprise" ? (
            <>
              <div className="field">
                <label>
                  IdP issuer (the one members sign in to Switchyard with)
                  <input
                    value={draft.idp_issuer}
                    onChange={(e) => set("idp_issuer", e.target.value)}
                    {...bad("idp_issuer")}
                  />
                </label>
                <FieldError form={FORM} field="idp_issuer" error={error} />
              </div>
              <div className="field">
                <label>
                  Switchyard&apos;s client id at the IdP
                  <input
                    value={draft.idp_client_id}
                    onChange={(e) => set("idp_client_id", e.target.value)}
                    {...bad("idp_client_id")}
                  />
                </label>
                <FieldError form={FORM} field="idp_client_id" error={error} />
              </div>
            </>
          ) : null}
          {draft.auth === "oauth" ||
          draft.auth === "enterprise" ||
          draft.auth === "client_credentials" ? (
            <div className="field">
              <label>
                {draft.auth === "enterprise"
                  ? "Switchyard's client id at the server's authorization server"
                  : draft.auth === "oauth"
                    ? "OAuth client id (only for servers without dynamic registration)"
                    : "OAuth client id (the client the authorization server registered for the team)"}
                <input
                  value={draft.oauth_client_id}
                  onChange={(e) => set("oauth_client_id", e.target.value)}
                  required={draft.auth === "client_credentials"}
                  {...bad("oauth_client_id")}
                />
              </label>
              <FieldError form={FORM} field="oauth_client_id" error={error} />
            </div>
          ) : null}
          {draft.auth === "client_credentials" ? (
            <div className="field">
              <label>
                The client proves itself with
                <select
                  value={draft.oauth_client_auth}
                  onChange={(e) => set("oauth_client_auth", e.target.value)}
                  {...bad("oauth_client_auth")}
                >
                  <option value="client_secret">a client secret</option>
                  <option value="private_key_jwt">a private key (private_key_jwt)</option>
                </select>
              </label>
              <FieldError form={FORM} field="oauth_client_auth" error={error} />
            </div>
          ) : null}
          <div className="field">
            <label>
              Headers, one Name: value per line (no secrets)
              <textarea
                rows={2}
                value={draft.headers}
                onChange={(e) => set("headers", e.target.value)}
                {...bad("headers")}
              />
            </label>
            <FieldError form={FORM} field="headers" error={error} />
          </div>
        </>
      )}
      <LaneChoice
        legend="Lanes whose runs may use it"
        lanes={props.teamLanes}
        chosen={draft.lanes}
        onChange={(lanes) => set("lanes", lanes)}
        every
        describedBy={bad("lanes")}
      />
      <FieldError form={FORM} field="lanes" error={error} />
      <div className="form-grid">
        <div className="field">
          <label>
            Whose account runs use
            <select
              value={draft.credential_mode}
              onChange={(e) => set("credential_mode", e.target.value)}
              {...bad("credential_mode")}
            >
              <option value="team">the team&apos;s (one credential, set by admins)</option>
              <option value="member">each member&apos;s own</option>
            </select>
          </label>
          <FieldError form={FORM} field="credential_mode" error={error} />
        </div>
        <div className="field">
          <label>
            Initial tools, comma-separated (optional)
            <input
              value={draft.initial_tools}
              onChange={(e) => set("initial_tools", e.target.value)}
              {...bad("initial_tools")}
            />
          </label>
          <FieldError form={FORM} field="initial_tools" error={error} />
        </div>
      </div>
      <label className="inline">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => set("enabled", e.target.checked)}
        />{" "}
        Enabled
      </label>
      <FormFooter
        error={error}
        fields={FIELDS}
        submit={editing ? "Save changes" : "Add connector"}
        pending={create.isPending || update.isPending}
        onCancel={props.onDone}
      />
    </form>
  );
}

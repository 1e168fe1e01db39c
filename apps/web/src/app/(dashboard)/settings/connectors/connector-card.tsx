"use client";
/**
 * One connector of the team as a card: how it is reached, its lanes, whose account runs
 * use, its tool rules and its credential; admins switch it on and off, change it, edit its
 * tool rules and remove it (asked twice).
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { ConnectorForm } from "./connector-form";
import { CredentialPanel } from "./credential-panel";
import { CuratedSetupForm } from "./curated-setup-form";
import { FormAlert, formError } from "./form-parts";
import { lanesText, nameOf, type Listing } from "./listing";
import { useConnectorsRefresh } from "./use-connectors-refresh";
import { rulesSummary, ToolRulesEditor } from "./tool-rules-editor";

function Reach({ def }: { def: Listing["definition"] }) {
  if (def.transport === "stdio") {
    const args = Array.isArray(def.args) ? (def.args as string[]) : [];
    return (
      <>
        stdio{" "}
        <code className="wrap">
          {[
            String(def.command),
            ...args.map((a) => (a.length > 60 ? `${a.slice(0, 60)}…` : a)),
          ].join(" ")}
        </code>
        {typeof def.credential_env === "string" ? (
          <span className="muted small"> · credential in {def.credential_env}</span>
        ) : null}
        <span className="muted small" data-network>
          {" "}
          · network: {def.network === true ? "on" : def.network === false ? "off" : "as steps"}
        </span>
      </>
    );
  }
  return (
    <>
      http <code className="wrap">{String(def.url)}</code>{" "}
      <span className="muted small">· sign-in: {String(def.auth)}</span>
    </>
  );
}

export function ConnectorCard(props: {
  listing: Listing;
  canAdmin: boolean;
  userId: string | undefined;
  teamLanes: string[];
}) {
  const { listing, canAdmin } = props;
  const def = listing.definition;
  const trpc = useTRPC();
  const refresh = useConnectorsRefresh();
  const update = useMutation(trpc.connectors.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.connectors.remove.mutationOptions({ onSuccess: refresh }));
  const [open, setOpen] = useState<"edit" | "rules" | null>(null);
  const [removing, setRemoving] = useState(false);
  // The switch shows what was asked for until the list says what is stored.
  const [switching, setSwitching] = useState<boolean | null>(null);
  const enabled = def.enabled !== false;
  const curated = listing.curatedAuth.length > 0;
  const name = nameOf(listing);
  const rules = rulesSummary(def.tool_allow);
  const headingId = `connector-${listing.id}-name`;

  return (
    <article
      className="card connector-card"
      aria-labelledby={headingId}
      data-connector={listing.id}
    >
      <header className="connector-head">
        <h3 id={headingId}>{name}</h3>
        <code className="muted small">{listing.id}</code>
        {curated ? <span className="badge">catalog</span> : null}
        <span className={`badge ${enabled ? "badge-succeeded" : ""}`} data-enabled={enabled}>
          {enabled ? "enabled" : "disabled"}
        </span>
      </header>
      {typeof def.description === "string" && def.description ? (
        <p className="muted small">{def.description}</p>
      ) : null}
      <dl className="facts small">
        <dt>Reached by</dt>
        <dd>
          <Reach def={def} />
        </dd>
        <dt>Lanes</dt>
        <dd data-lanes>{lanesText(def.lanes)}</dd>
        <dt>Account</dt>
        <dd>{def.credential_mode === "member" ? "each member's own" : "the team's"}</dd>
        <dt>Tool rules</dt>
        <dd data-rules>{rules || <span className="muted">none</span>}</dd>
        {listing.docsUrl ? (
          <>
            <dt>Docs</dt>
            <dd>
              <a href={listing.docsUrl} target="_blank" rel="noreferrer">
                {new URL(listing.docsUrl).hostname}
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      <CredentialPanel listing={listing} canAdmin={canAdmin} userId={props.userId} />
      {canAdmin ? (
        <div className="form-actions wrap-actions">
          <label className="inline">
            <input
              type="checkbox"
              role="switch"
              checked={switching ?? enabled}
              disabled={update.isPending}
              onChange={(e) => {
                setSwitching(e.target.checked);
                update.mutate(
                  { id: listing.id, definition: { ...def, enabled: e.target.checked } },
                  { onSettled: () => setSwitching(null) },
                );
              }}
            />{" "}
            Enabled
          </label>
          <button
            type="button"
            className="link"
            onClick={() => setOpen(open === "edit" ? null : "edit")}
            aria-expanded={open === "edit"}
          >
            {curated ? "Change setup" : "Edit"}
          </button>
          <button
            type="button"
            className="link"
            onClick={() => setOpen(open === "rules" ? null : "rules")}
            aria-expanded={open === "rules"}
          >
            Tool rules
          </button>
          {removing ? (
            <>
              <button
                type="button"
                className="link danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ id: listing.id })}
              >
                Remove {name} and its credentials
              </button>
              <button type="button" className="link" onClick={() => setRemoving(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="link" onClick={() => setRemoving(true)}>
              Remove
            </button>
          )}
        </div>
      ) : null}
      <FormAlert error={formError(update.error ?? remove.error)} fields={[]} />
      {open === "edit" && curated ? (
        <CuratedSetupForm
          listing={listing}
          teamLanes={props.teamLanes}
          onDone={() => setOpen(null)}
        />
      ) : null}
      {open === "edit" && !curated ? (
        <ConnectorForm teamLanes={props.teamLanes} editing={def} onDone={() => setOpen(null)} />
      ) : null}
      {open === "rules" ? (
        <ToolRulesEditor
          listing={listing}
          teamLanes={props.teamLanes}
          onDone={() => setOpen(null)}
        />
      ) : null}
    </article>
  );
}

/** A catalog entry the team has not set up: what it is, its docs, and (admins) setting it up. */
export function CatalogCard(props: { listing: Listing; canAdmin: boolean; teamLanes: string[] }) {
  const { listing } = props;
  const [open, setOpen] = useState(false);
  const name = nameOf(listing);
  const headingId = `catalog-${listing.id}-name`;
  return (
    <article className="card connector-card" aria-labelledby={headingId} data-catalog={listing.id}>
      <header className="connector-head">
        <h3 id={headingId}>{name}</h3>
        <span className="muted small">sign-in: {listing.curatedAuth.join(" or ")}</span>
      </header>
      {typeof listing.definition.description === "string" ? (
        <p className="muted small">{listing.definition.description}</p>
      ) : null}
      <div className="form-actions wrap-actions">
        {listing.docsUrl ? (
          <a href={listing.docsUrl} target="_blank" rel="noreferrer">
            Docs<span className="visually-hidden"> for {name}</span>
          </a>
        ) : null}
        {props.canAdmin ? (
          <button
            type="button"
            className="link"
            onClick={() => setOpen(!open)}
            aria-expanded={open}
          >
            Set up<span className="visually-hidden"> {name}</span>
          </button>
        ) : null}
      </div>
      {open ? (
        <CuratedSetupForm
          listing={listing}
          teamLanes={props.teamLanes}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </article>
  );
}

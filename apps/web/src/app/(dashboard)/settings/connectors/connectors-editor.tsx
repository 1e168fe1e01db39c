"use client";
/**
 * The Connectors page's body: the team's connectors (admins add and change them), the
 * catalog entries not set up yet, and for admins the console.
 */
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { CatalogCard, ConnectorCard } from "./connector-card";
import { ConnectorConsole } from "./connector-console";
import { ConnectorForm } from "./connector-form";

export function ConnectorsEditor(props: { canAdmin: boolean; userId: string | undefined }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.connectors.list.queryOptions());
  const teamLanes = (useQuery(trpc.lanes.list.queryOptions()).data ?? []).map((l) => l.name);
  const [adding, setAdding] = useState(false);
  const team = (list.data ?? []).filter((c) => c.source === "team");
  const catalog = (list.data ?? []).filter((c) => c.source === "curated");
  // Where the OAuth callback sent the browser back: ?connector=<id>&connected=team|member, or &error=<code>.
  const params = useSearchParams();
  const returned = params.get("connector");

  return (
    <>
      {returned && params.get("connected") ? (
        <p className="notice" role="status">
          Connected {returned} (
          {params.get("connected") === "team" ? "the team's account" : "your account"}).
        </p>
      ) : null}
      {returned && params.get("error") ? (
        <p className="error" role="alert">
          Connecting {returned} failed: {params.get("error")}.
        </p>
      ) : null}
      {list.error ? (
        <p className="error" role="alert">
          {list.error.message}
        </p>
      ) : null}
      <section aria-labelledby="team-connectors">
        <div className="section-head">
          <h2 id="team-connectors">Team connectors</h2>
          {props.canAdmin ? (
            <button type="button" onClick={() => setAdding(!adding)} aria-expanded={adding}>
              Add a connector
            </button>
          ) : null}
        </div>
        {adding ? <ConnectorForm teamLanes={teamLanes} onDone={() => setAdding(false)} /> : null}
        {list.data && team.length === 0 ? (
          <p className="muted">
            No connectors yet{props.canAdmin ? ": add one, or set one up from the catalog" : ""}.
          </p>
        ) : null}
        <div className="connector-list">
          {team.map((c) => (
            <ConnectorCard
              key={c.id}
              listing={c}
              canAdmin={props.canAdmin}
              userId={props.userId}
              teamLanes={teamLanes}
            />
          ))}
        </div>
      </section>
      <section aria-labelledby="catalog">
        <h2 id="catalog">Catalog</h2>
        <p className="muted small">
          Well-known remote servers that need nothing but a credential. Set up, they open to every
          lane unless told.
        </p>
        <div className="connector-list">
          {catalog.map((c) => (
            <CatalogCard key={c.id} listing={c} canAdmin={props.canAdmin} teamLanes={teamLanes} />
          ))}
        </div>
      </section>
      {props.canAdmin ? (
        <section aria-labelledby="console">
          <h2 id="console">Console</h2>
          <p className="muted small">
            Call one tool by hand, through a worker, as runs in the chosen lane would. The call is
            an audit entry (never its arguments).
          </p>
          <ConnectorConsole connectors={team} teamLanes={teamLanes} />
        </section>
      ) : null}
    </>
  );
}

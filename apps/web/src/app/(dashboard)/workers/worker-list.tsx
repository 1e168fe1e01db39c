"use client";
/**
 * The workers whose heartbeat is fresh: where each runs, at which sandbox level, and the
 * agent CLIs of its agents folder, a version other than scripts/agents.json's pin marked
 * (its steps run all the same; a run that staged it says so on its page).
 */
import { useQuery } from "@tanstack/react-query";
import { LocalTime } from "~/components/local-time";
import { useTRPC } from "~/trpc/react";

type WorkerAgent = {
  agent: string;
  pinned: string;
  installed: string | null;
  drift: boolean;
};

function AgentVersions({ agents }: { agents: WorkerAgent[] | undefined }) {
  if (!agents) return <span className="muted">not reported</span>;
  return (
    <ul className="plain-list">
      {agents.map((a) => (
        <li key={a.agent} data-agent={a.agent} data-drift={a.drift ? "yes" : "no"}>
          {a.agent}{" "}
          {a.installed === null ? (
            <span className="muted">not installed</span>
          ) : (
            <code>{a.installed}</code>
          )}
          {a.drift ? (
            <span className="warn" title={`scripts/agents.json pins ${a.pinned}`}>
              {" "}
              ⚠ pin {a.pinned}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function WorkerList() {
  const trpc = useTRPC();
  const workers = useQuery({ ...trpc.system.workers.queryOptions(), refetchInterval: 5000 });
  if (!workers.data) return null;
  if (workers.data.length === 0) return <p className="muted">No worker is running.</p>;
  return (
    <div className="table-scroll">
      <table className="table" data-testid="workers">
        <thead>
          <tr>
            <th scope="col">Worker</th>
            <th scope="col">Host</th>
            <th scope="col">Sandbox</th>
            <th scope="col">Concurrency</th>
            <th scope="col">Agent CLIs</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {workers.data.map((w) => (
            <tr key={w.workerId} data-worker={w.workerId}>
              <td>
                <code>{w.workerId}</code>
              </td>
              <td>
                {w.hostname} (pid {w.pid})
              </td>
              <td>{w.sandboxLevel}</td>
              <td>{w.concurrency}</td>
              <td>
                <AgentVersions agents={w.agents} />
              </td>
              <td>
                <LocalTime value={w.startedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

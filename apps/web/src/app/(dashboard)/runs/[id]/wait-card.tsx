/**
 * What every wait's banner shares: the card with the question as its title, and, on the
 * "Waiting for you" list, where the wait comes from (its run, or a connector console call).
 */
import Link from "next/link";
import type { ReactNode } from "react";

type WaitOrigin = {
  id: string;
  question: string;
  runId: string | null;
  run: { workflow: string } | null;
};

export function WaitCard({ wait, children }: { wait: WaitOrigin; children: ReactNode }) {
  const titleId = `wait-${wait.id}-title`;
  return (
    <section
      className="card wait-banner"
      role="region"
      aria-labelledby={titleId}
      data-testid="wait-banner"
      data-wait={wait.id}
    >
      <h2 id={titleId} className="wait-question">
        <span aria-hidden="true">⏸ </span>
        {wait.question}
      </h2>
      {children}
    </section>
  );
}

/** The run a wait belongs to, as a link and a separator; nothing unless `show`. */
export function WaitFrom({ wait, show }: { wait: WaitOrigin; show: boolean }) {
  if (!show) return null;
  return (
    <>
      <WaitRunLink wait={wait} />
      {" · "}
    </>
  );
}

export function WaitRunLink({ wait }: { wait: Pick<WaitOrigin, "runId" | "run"> }) {
  return wait.runId && wait.run ? (
    <Link href={`/runs/${wait.runId}`}>Run of {wait.run.workflow}</Link>
  ) : (
    <Link href="/settings/connectors">A connector console call</Link>
  );
}

/** Who may answer, for someone who may not. */
export function WaitWho({ wait }: { wait: { answerers: string; refusal: string | null } }) {
  return (
    <p className="muted small" data-testid="wait-who">
      Waiting for {wait.answerers}
      {wait.refusal ? `: ${wait.refusal}` : ""}.
    </p>
  );
}

/** What a status reads as where its name alone would mislead (waiting is for a person, not a place). */
const LABELS: Record<string, string> = { waiting: "waiting for a person" };

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {LABELS[status] ?? status}
    </span>
  );
}

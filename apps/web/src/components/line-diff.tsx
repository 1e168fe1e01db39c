/**
 * A line diff as a table: each line with its old and new numbers, added and removed lines
 * marked with + and − (spoken as such) as well as colour. Versions of a workflow and the
 * answers of two agent attempts are shown with it.
 */
import styles from "./line-diff.module.css";

export type DiffLine = {
  kind: "add" | "del" | "context" | "hunk";
  text: string;
  oldLine?: number;
  newLine?: number;
};

const MARK: Record<DiffLine["kind"], string> = { add: "+", del: "−", context: " ", hunk: "" };
const SPOKEN: Record<DiffLine["kind"], string> = {
  add: "added",
  del: "removed",
  context: "",
  hunk: "",
};

export function LineDiff({ lines, label }: { lines: DiffLine[]; label: string }) {
  return (
    <div className={styles.diffBody} role="table" aria-label={label}>
      {lines.map((l, i) => (
        <div
          key={i}
          role="row"
          className={`${styles.diffLine} ${l.kind === "add" ? styles.add : l.kind === "del" ? styles.del : l.kind === "hunk" ? styles.hunk : ""}`}
          data-kind={l.kind}
        >
          <span role="cell" className={styles.num}>
            {l.oldLine ?? ""}
          </span>
          <span role="cell" className={styles.num}>
            {l.newLine ?? ""}
          </span>
          <span role="cell" className={styles.mark} aria-label={SPOKEN[l.kind] || undefined}>
            {MARK[l.kind]}
          </span>
          <span role="cell">{l.text}</span>
        </div>
      ))}
    </div>
  );
}

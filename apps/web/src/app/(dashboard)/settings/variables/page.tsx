import { VariablesEditor } from "./variables-editor";

export default function VariablesPage() {
  return (
    <>
      <h1>Variables and secrets</h1>
      <p className="muted">
        Values for the names a workflow lists under <code>env</code>. Secrets are stored encrypted,
        never shown again, and replaced by [REDACTED] wherever a run would store or show them. A
        secret opens only for runs in the lanes it lists (a new one: <code>operator</code> alone); a
        workflow naming one its lane cannot open is refused when saved and when started. Only admins
        change variables.
      </p>
      <VariablesEditor />
    </>
  );
}

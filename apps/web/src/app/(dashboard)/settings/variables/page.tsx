import { VariablesEditor } from "./variables-editor";

export default function VariablesPage() {
  return (
    <>
      <h1>Variables and secrets</h1>
      <p className="muted">
        Values for the names a workflow lists under <code>env</code>. Secrets are stored encrypted, never shown again, and
        replaced by [REDACTED] wherever a run would store or show them.
      </p>
      <VariablesEditor />
    </>
  );
}

import { ModelsEditor } from "./models-editor";

export default function ModelsPage() {
  return (
    <>
      <h1>Models</h1>
      <p className="muted">
        How this team&apos;s agent steps reach each model vendor. A vendor&apos;s API key is stored
        encrypted and never shown again: the list says only that it is set, with its last four
        characters. An endpoint left empty is the vendor&apos;s own. An{" "}
        <code>openai_compatible</code> step&apos;s <code>options.base_url</code> must fall under one
        of the allowed endpoints listed here. Every member sees this page; only admins change it.
      </p>
      <ModelsEditor />
    </>
  );
}

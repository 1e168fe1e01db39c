import { env } from "~/env";
import { ModelsEditor } from "./models-editor";

// The demo model's port comes from the server's environment when the page is asked for.
export const dynamic = "force-dynamic";

export default function ModelsPage() {
  const demoPort = env().SWITCHYARD_DEMO_MODEL_PORT;
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
      <p className="muted">
        A model on your own machine (Ollama, vLLM, llama.cpp) is an OpenAI-compatible endpoint: set
        up <strong>OpenAI-compatible</strong> and allow its address, e.g.{" "}
        <code>http://127.0.0.1:11434/v1</code> for Ollama, then name it in a step&apos;s{" "}
        <code>options.base_url</code> with its <code>model</code>.
      </p>
      <ModelsEditor demoEndpoint={demoPort > 0 ? `http://127.0.0.1:${demoPort}/v1` : null} />
    </>
  );
}

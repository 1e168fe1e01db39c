import { WorkflowEditor } from "~/components/workflow-editor";
import { cspNonce } from "~/server/workflows/csp-nonce";

export default async function NewWorkflowPage() {
  const nonce = await cspNonce();
  return (
    <>
      <h1>New workflow</h1>
      <WorkflowEditor nonce={nonce} />
    </>
  );
}

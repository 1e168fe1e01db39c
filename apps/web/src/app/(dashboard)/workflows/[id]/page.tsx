import { cspNonce } from "~/server/workflows/csp-nonce";
import { TriggersPanel } from "./triggers-panel";
import { WorkflowView } from "./workflow-view";

export default async function WorkflowPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string }>;
}) {
  const [{ id }, { saved }, nonce] = await Promise.all([params, searchParams, cspNonce()]);
  return (
    <WorkflowView
      id={id}
      saved={saved}
      nonce={nonce}
      triggers={<TriggersPanel workflowId={id} />}
    />
  );
}

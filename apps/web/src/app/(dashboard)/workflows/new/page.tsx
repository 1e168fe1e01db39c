import { WorkflowEditor } from "~/components/workflow-editor";

export default function NewWorkflowPage() {
  return (
    <>
      <h1>New workflow</h1>
      <WorkflowEditor />
    </>
  );
}

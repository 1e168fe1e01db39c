import { WorkflowList } from "./workflow-list";

export default function WorkflowsPage() {
  return (
    <>
      <h1>Workflows</h1>
      <WorkflowList />
    </>
  );
}

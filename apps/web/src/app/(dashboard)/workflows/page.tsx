import Link from "next/link";
import { WorkflowList } from "./workflow-list";

export default function WorkflowsPage() {
  return (
    <>
      <h1>
        Workflows{" "}
        <Link href="/workflows/new" className="small">
          New workflow
        </Link>
      </h1>
      <WorkflowList />
    </>
  );
}

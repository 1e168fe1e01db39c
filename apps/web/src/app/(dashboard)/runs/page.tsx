import { RunList } from "./run-list";

export default function RunsPage() {
  return (
    <>
      <h1>Runs</h1>
      <RunList />
    </>
  );
}

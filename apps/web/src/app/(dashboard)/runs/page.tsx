import { Suspense } from "react";
import { Loading } from "~/components/states";
import { RunList } from "./run-list";

export default function RunsPage() {
  return (
    <>
      <h1>Runs</h1>
      <Suspense fallback={<Loading label="Loading runs…" />}>
        <RunList />
      </Suspense>
    </>
  );
}

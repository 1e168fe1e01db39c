import { Prefetched, type ServerTrpc } from "~/trpc/server";
import type { QueryClient } from "@tanstack/react-query";
import { TOOL_CALL_PAGE } from "./page-sizes";
import { RunView } from "./run-view";

/**
 * What the page shows first, fetched while it renders: the run, its graph and waits, and
 * each agent step's activity with its first page of tool calls. Without it the browser
 * would ask for them in three rounds (the run, then each step's activity, then its calls).
 */
const firstView = (id: string) => async (trpc: ServerTrpc, client: QueryClient) => {
  const run = trpc.runs.get.queryOptions({ id });
  await Promise.all([
    client.prefetchQuery(run),
    client.prefetchQuery(trpc.runs.graph.queryOptions({ id })),
    client.prefetchQuery(trpc.waits.list.queryOptions({ runId: id })),
  ]);
  const steps = client.getQueryData(run.queryKey)?.steps ?? [];
  await Promise.all(
    steps
      .filter((step) => step.stepType === "agent")
      .flatMap((step) => [
        client.prefetchQuery(
          trpc.runs.stepActivity.queryOptions({ runId: id, stepRunId: step.id, toolCallLimit: 0 }),
        ),
        client.prefetchQuery(
          trpc.runs.toolCalls.queryOptions({ id, stepRunId: step.id, limit: TOOL_CALL_PAGE }),
        ),
      ]),
  );
};

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Prefetched fetch={firstView(id)}>
      <RunView id={id} />
    </Prefetched>
  );
}

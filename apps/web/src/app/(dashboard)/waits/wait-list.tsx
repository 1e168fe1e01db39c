"use client";
/**
 * "Waiting for you": the open waits the signed-in person may answer, newest first, each with
 * its question, what it waits on and Approve / Deny, so a person clears them in one place.
 * Refreshed every few seconds; an answer refreshes the list and the navigation's count.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import { useTRPC } from "~/trpc/react";
import { WaitBanner } from "../runs/[id]/wait-banner";

export function WaitList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const waits = useQuery({
    ...trpc.waits.list.queryOptions({ mine: true, limit: 200 }),
    refetchInterval: 5000,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.waits.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.waits.count.queryKey() });
  };
  if (waits.isPending) return <Loading label="Loading what waits for you…" />;
  if (waits.isError)
    return (
      <ErrorState
        title="The waits could not be loaded"
        error={waits.error}
        retry={() => void waits.refetch()}
      />
    );
  const list = waits.data.waits;
  if (list.length === 0)
    return (
      <EmptyState
        title="Nothing waits for you"
        action={<Link href="/runs?status=waiting">Runs waiting for a person</Link>}
      >
        When an agent calls a tool that needs approval and you may give it, the call shows here with
        Approve and Deny; a run a schedule or webhook started without a required input shows here
        with a form for it.
      </EmptyState>
    );
  return (
    <div data-testid="wait-list">
      <p className="muted">
        {list.length === 1 ? "One question waits" : `${list.length} questions wait`} for your
        answer.
      </p>
      {list.map((w) => (
        <WaitBanner key={w.id} wait={w} onAnswered={refresh} showRun />
      ))}
    </div>
  );
}

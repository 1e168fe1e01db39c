/**
 * tRPC on the server, for pages that fetch what they show first while they render (one
 * cache per request): `prefetched(page, fetch)` runs the fetches and hands their results to
 * the page's client components through a HydrationBoundary, so the browser does not wait for
 * its own round trips (and their waterfall) before it can show them. A fetch that fails is
 * left to the client, which asks again and shows the error as it always did.
 */
import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { ReactNode } from "react";
import { cache } from "react";
import { appRouter } from "~/server/trpc/root";
import { sessionContext } from "~/server/trpc/session-context";
import { makeQueryClient } from "./query-client";

const queryClient = cache(makeQueryClient);

const serverTrpc = createTRPCOptionsProxy({
  // One session read per request, however many procedures the page calls.
  ctx: cache(sessionContext),
  router: appRouter,
  queryClient,
});

export type ServerTrpc = typeof serverTrpc;

export async function Prefetched({
  fetch,
  children,
}: {
  fetch: (trpc: ServerTrpc, client: QueryClient) => Promise<unknown>;
  children: ReactNode;
}) {
  const client = queryClient();
  await fetch(serverTrpc, client);
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}

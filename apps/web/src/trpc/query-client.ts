/**
 * The React Query cache the dashboard's pages read through, made the same way in the browser
 * and on the server: what a page fetched on the server goes to the browser with its HTML
 * (superjson, as tRPC sends it), so the page shows it without asking again.
 */
import { QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

export const makeQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { staleTime: 1000, retry: 1 },
      dehydrate: { serializeData: superjson.serialize },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });

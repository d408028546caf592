// One QueryClient shape for both sides: on the server, one per request (pages prefetch into it
// and dehydrate it into the HTML); in the browser, one for the tab. superjson carries Dates
// across the hydration boundary exactly as over the wire.
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Server-rendered data is fresh: do not refetch it the moment the page hydrates.
        staleTime: 30_000,
        // An API error (not found, forbidden) will not change on retry; show it at once.
        retry: false,
      },
      dehydrate: {
        serializeData: superjson.serialize,
        // Also pending queries, so a page can stream data it did not await.
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}

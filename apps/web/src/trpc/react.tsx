"use client";
// The browser side of the owner API: tRPC over TanStack Query, same origin. Queries and
// mutations go through httpBatchLink (JSON POSTs for mutations, which the API's CSRF guard
// requires; batches of at most the API's MAX_BATCH_CALLS), auth calls one at a time through
// httpLink (the API refuses them batched), subscriptions (live transcripts) through
// httpSubscriptionLink (SSE, resumes from Last-Event-ID). Client components use `useTRPC()`.
import type { AppRouter } from "@secondshift/api";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { MAX_BATCH_CALLS, mustCallAlone } from "@secondshift/vocabulary";
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  splitLink,
} from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import { makeQueryClient } from "./query-client.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Same origin only: the API lives beside the pages, under /api/trpc/. */
const API_URL = "/api/trpc";

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  // On the server (rendering client components) a fresh client per request; in the browser one.
  if (typeof window === "undefined") return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

function makeTRPCClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: API_URL, transformer: superjson }),
        false: splitLink({
          condition: (op) => mustCallAlone(op.path),
          true: httpLink({ url: API_URL, transformer: superjson }),
          false: httpBatchLink({ url: API_URL, transformer: superjson, maxItems: MAX_BATCH_CALLS }),
        }),
      }),
    ],
  });
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(makeTRPCClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

// The server side of the owner API for pages (server components): procedures run in-process
// as the user the request's session cookie names (src/server-api.ts). Pages either prefetch
// queries into the request's QueryClient and wrap client components in <HydrateClient>, or
// call procedures directly with `await caller()` (redirect decisions, server-only content).
import "server-only";
import type { AppRouter, ServerCaller } from "@secondshift/api";
import {
  dehydrate,
  HydrationBoundary,
  type FetchQueryOptions,
  type QueryKey,
} from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { serverApi } from "../server-api.ts";
import { makeQueryClient } from "./query-client.ts";

/** One QueryClient per request. */
export const getQueryClient = cache(makeQueryClient);

const requestHeaders = cache(async () => new Headers(await headers()));

const createContext = cache(async () => serverApi().createContext(await requestHeaders()));

/** Query options for prefetching (`prefetch(api().auth.me.queryOptions())`). */
export const api = cache((): TRPCOptionsProxy<AppRouter> =>
  createTRPCOptionsProxy<AppRouter>({
    router: serverApi().router,
    ctx: createContext,
    queryClient: getQueryClient,
  }),
);

/** Calls procedures directly, as the signed-in user (or anonymously). */
export const caller = cache(async (): Promise<ServerCaller> =>
  serverApi().createServerCaller(await requestHeaders()),
);

/** Starts a query on the server; the client component reading it finds it in the cache. */
export function prefetch<TData, TError, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TData, TError, TData, TQueryKey>,
): void {
  void getQueryClient().prefetchQuery(options);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/** A tRPC error's code (TRPCError's `code`), when `error` is one. */
export function trpcCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
}

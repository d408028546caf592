"use client";
// A list's filters, read from and written to the URL (url-filters.ts). Writing uses
// history.replaceState, which Next's router follows (useSearchParams changes) without asking
// the server for the page again: the list's own query fetches what the filters select, and a
// reload or a shared link renders the same view on the server. Until the router has caught up
// with a change, the typed value is held here, so a text box never loses keystrokes.
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { withFilters, type ParamReader } from "./url-filters.ts";

export function useUrlFilters<F extends Record<string, string>>(
  parse: (params: ParamReader) => F,
): [F, (next: F) => void] {
  const searchParams = useSearchParams();
  const urlQuery = searchParams.toString();
  const fromUrl = useMemo(() => parse(new URLSearchParams(urlQuery)), [parse, urlQuery]);
  const [pending, setPending] = useState<{ query: string; filters: F } | null>(null);
  // The URL holds the change now (or a link replaced it): it is the source again.
  if (pending && pending.query === urlQuery) setPending(null);

  const setFilters = (next: F) => {
    const query = withFilters(window.location.search, next);
    setPending({ query, filters: next });
    window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
  };
  return [pending?.filters ?? fromUrl, setFilters];
}

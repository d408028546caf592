"use client";
// The run's stored transcript, read page by page from the newest (runs.transcriptPage, the
// first page prefetched by the run page): the latest events show at once and older pages are
// loaded when the reader scrolls up (`loadOlder`). Never refetched (staleTime Infinity): what
// comes after the newest held seq arrives through the live tail (useTranscript), so a refetch
// could only move the tail's starting point under it.
import { readTranscriptEvent } from "@secondshift/vocabulary";
import { useSuspenseInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { olderPageParam, transcriptPageInput } from "./transcript-query.ts";
import type { TranscriptEntry } from "./use-transcript.ts";

export interface TranscriptHistory {
  /** Every loaded event, in seq order. */
  events: TranscriptEntry[];
  /** The newest held seq (-1: the run has no stored event yet): the live tail starts after it. */
  newestSeq: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}

type StoredEvent = { seq: number; type: string; payload: unknown; createdAt: Date };

/** Each page is read with the vocabulary's schema once, not at every new page. */
const readPages = new WeakMap<object, TranscriptEntry[]>();
function readPage(page: { events: StoredEvent[] }): TranscriptEntry[] {
  let entries = readPages.get(page);
  if (!entries) {
    entries = page.events.map((e) => ({
      seq: e.seq,
      createdAt: e.createdAt,
      event: readTranscriptEvent(e.type, e.payload),
    }));
    readPages.set(page, entries);
  }
  return entries;
}

export function useTranscriptHistory(input: {
  workspaceId: string;
  runId: string;
}): TranscriptHistory {
  const trpc = useTRPC();
  const query = useSuspenseInfiniteQuery(
    trpc.runs.transcriptPage.infiniteQueryOptions(
      transcriptPageInput(input.workspaceId, input.runId),
      { getNextPageParam: olderPageParam, staleTime: Infinity },
    ),
  );
  const { pages } = query.data;
  // pages[0] is the newest page; each next one is older.
  const events = useMemo(() => [...pages].reverse().flatMap(readPage), [pages]);
  const newestSeq = pages[0]?.events.at(-1)?.seq ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    events,
    newestSeq,
    hasOlder: hasNextPage,
    loadingOlder: isFetchingNextPage,
    loadOlder,
  };
}

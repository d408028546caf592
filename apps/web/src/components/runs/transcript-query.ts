// The run page's paged transcript history, one definition for the page's server prefetch and
// the client hook: pages of TRANSCRIPT_PAGE_SIZE events, newest first by seq cursor.
export const TRANSCRIPT_PAGE_SIZE = 200;

export function transcriptPageInput(workspaceId: string, runId: string) {
  return { workspaceId, runId, limit: TRANSCRIPT_PAGE_SIZE };
}

/** The page before `page`: its `nextCursor` (undefined ends the infinite query). */
export function olderPageParam(page: { nextCursor: number | null }): number | undefined {
  return page.nextCursor ?? undefined;
}

// Cursor paging by id. Ids are UUID v7 (time-ordered), so "id below the cursor, newest first"
// pages stably while new rows arrive.
export interface PageInput {
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** 1…100, default 50. */
  limit?: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function pageQuery(input: PageInput) {
  const take = Math.min(Math.max(Math.trunc(input.limit ?? 50), 1), 100);
  return {
    where: input.cursor === undefined ? {} : { id: { lt: input.cursor } },
    orderBy: { id: "desc" as const },
    take: take + 1,
  };
}

export function toPage<T extends { id: string }>(rows: T[], input: PageInput): Page<T> {
  const take = pageQuery(input).take - 1;
  const items = rows.slice(0, take);
  return { items, nextCursor: rows.length > take ? (items.at(-1)?.id ?? null) : null };
}

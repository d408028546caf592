// A cursor-paged list's states around its rows: loading, an error with Retry, empty (with what
// to do about it), then the rows and "Load more" while the API has more pages. The runs list,
// the audit log and the webhook deliveries share it, so the three behave alike.
import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { errorMessage } from "./error-message.ts";
import { EmptyState, ErrorState, LoadingState } from "./states.tsx";

/** What the list reads from TanStack Query's useInfiniteQuery result. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function PagedList(props: {
  query: PagedQuery;
  /** Rows loaded so far. */
  count: number;
  loading: string;
  errorTitle: string;
  empty: { title: string; message: ReactNode };
  moreLabel?: string;
  children: ReactNode;
}) {
  const { query } = props;
  if (query.isPending) return <LoadingState label={props.loading} />;
  if (query.isError) {
    return (
      <ErrorState
        title={props.errorTitle}
        message={errorMessage(query.error)}
        action={<Button onClick={() => void query.refetch()}>Retry</Button>}
      />
    );
  }
  if (props.count === 0)
    return <EmptyState title={props.empty.title}>{props.empty.message}</EmptyState>;
  return (
    <>
      {props.children}
      {query.hasNextPage ? (
        <div>
          <Button
            tone="secondary"
            pending={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {props.moreLabel ?? "Load more"}
          </Button>
        </div>
      ) : null}
    </>
  );
}

// The three states every screen has besides its content: loading, empty and error. The error
// shows the API's own message (written for users, never a secret).
import type { ReactNode } from "react";

/**
 * A section still loading: its words for screen readers and sighted users, over grey bars the
 * size of the content to come, so the page keeps its layout while it waits.
 */
export function LoadingState({ label = "Loading…" }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <p className="text-sm text-slate-600">{label}</p>
      <div aria-hidden="true" className="flex animate-pulse flex-col gap-2">
        <div className="h-4 w-2/3 rounded bg-slate-200" />
        <div className="h-4 w-1/2 rounded bg-slate-200" />
        <div className="h-4 w-3/5 rounded bg-slate-200" />
      </div>
    </div>
  );
}

/**
 * A whole page loading (loading.tsx, inside the shell): a heading skeleton where the page's
 * <h1> will be, then the section skeleton.
 */
export function PageLoading({ label = "Loading…" }: { label?: string }) {
  return (
    <>
      <div aria-hidden="true" className="mb-6 flex animate-pulse flex-col gap-2">
        <div className="h-7 w-48 rounded bg-slate-200" />
        <div className="h-4 w-80 max-w-full rounded bg-slate-100" />
      </div>
      <LoadingState label={label} />
    </>
  );
}

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}

export function ErrorState({
  title = "Something went wrong",
  message,
  action,
}: {
  title?: string;
  message: string;
  action?: ReactNode;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm">
      <h2 className="font-semibold text-red-900">{title}</h2>
      <p className="mt-1 text-red-800">{message}</p>
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}

/** Confirms what an action changed (announced politely to screen readers). */
export function Notice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="status"
      className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900"
    >
      {message}
    </p>
  );
}

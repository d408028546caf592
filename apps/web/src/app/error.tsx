"use client";
// The error state of every page without its own. An error thrown in the browser (an API call's
// TRPCClientError) shows the API's message; one from a server render arrives stripped (only a
// digest), so it gets a generic message.
import { Button } from "../components/ui/button.tsx";
import { errorMessage } from "../components/ui/error-message.ts";
import { ErrorState } from "../components/ui/states.tsx";

export default function PageError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const message = error.digest
    ? "The page failed to load on the server. Retry in a moment."
    : errorMessage(error);
  return (
    <main className="mx-auto max-w-2xl p-8">
      <ErrorState
        message={message}
        action={
          <Button tone="secondary" onClick={reset}>
            Retry
          </Button>
        }
      />
    </main>
  );
}

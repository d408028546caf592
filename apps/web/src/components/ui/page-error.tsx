"use client";
// The error state of a page (Next's error.tsx files render it). An error thrown in the browser
// (an API call's TRPCClientError) shows the API's message; one from a server render arrives
// stripped (only a digest), so it gets a generic message.
import { Button } from "./button.tsx";
import { errorMessage } from "./error-message.ts";
import { ErrorState } from "./states.tsx";

export interface PageErrorProps {
  error: Error & { digest?: string };
  reset: () => void;
}

export function PageError({ error, reset }: PageErrorProps) {
  const message = error.digest
    ? "The page failed to load on the server. Retry in a moment."
    : errorMessage(error);
  return (
    <ErrorState
      message={message}
      action={
        <Button tone="secondary" onClick={reset}>
          Retry
        </Button>
      }
    />
  );
}

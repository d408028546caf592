"use client";
// The error state of pages outside the shell (setup, sign-in, invitations).
import { PageError, type PageErrorProps } from "../components/ui/page-error.tsx";

export default function RootError(props: PageErrorProps) {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <PageError {...props} />
    </main>
  );
}

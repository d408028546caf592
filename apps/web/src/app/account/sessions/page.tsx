// The signed-in user's own sessions, on every device.
import type { Metadata } from "next";
import { Suspense } from "react";
import { SessionsTable } from "../../../components/account/sessions-table.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../components/ui/states.tsx";
import { api, HydrateClient, prefetch } from "../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Your sessions" };

export default function SessionsPage() {
  prefetch(api().auth.sessions.list.queryOptions());
  return (
    <>
      <PageHeader
        title="Your sessions"
        description="Where your account is signed in. End any session you do not recognise."
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading sessions…" />}>
          <SessionsTable />
        </Suspense>
      </HydrateClient>
    </>
  );
}

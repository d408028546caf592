// Placeholder until this screen is built.
import type { Metadata } from "next";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { EmptyState } from "../../../components/ui/states.tsx";

export const metadata: Metadata = { title: "Your sessions" };

export default function SessionsPage() {
  return (
    <>
      <PageHeader title="Your sessions" />
      <EmptyState title="Not built yet">This screen is coming.</EmptyState>
    </>
  );
}

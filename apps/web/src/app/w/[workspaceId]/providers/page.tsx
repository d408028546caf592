// Placeholder until this screen is built (docs/CONVENTIONS.md, "The web app").
import type { Metadata } from "next";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { EmptyState } from "../../../../components/ui/states.tsx";

export const metadata: Metadata = { title: "Model providers" };

export default function ProvidersPage() {
  return (
    <>
      <PageHeader title="Model providers" />
      <EmptyState title="Not built yet">This screen is coming.</EmptyState>
    </>
  );
}

// The front door: first-run setup while no account exists, else the user's first workspace.
import { redirect } from "next/navigation";
import { EmptyState } from "../components/ui/states.tsx";
import { caller } from "../trpc/server.tsx";
import { requireUser } from "../trpc/session.ts";

export default async function Home() {
  const { needsSetup } = await (await caller()).auth.setupStatus();
  if (needsSetup) redirect("/setup");
  const me = await requireUser();
  const first = me.workspaces[0];
  if (first) redirect(`/w/${first.id}`);
  return (
    <main className="mx-auto max-w-lg p-8">
      <EmptyState title="You are not a member of any workspace yet">
        Ask a workspace owner for an invitation link.
      </EmptyState>
    </main>
  );
}

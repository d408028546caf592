// Every workspace page: signed in (else sign-in), a member (else not found), inside the shell.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "../../../components/shell/app-shell.tsx";
import { requireUser } from "../../../trpc/session.ts";

export default async function WorkspaceLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const user = await requireUser();
  if (!user.workspaces.some((w) => w.id === workspaceId)) notFound();
  return (
    <AppShell user={user} workspaceId={workspaceId}>
      {children}
    </AppShell>
  );
}

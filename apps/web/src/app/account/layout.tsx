// The signed-in user's own pages (not tied to a workspace), inside the shell with the workspace
// navigation kept: the workspace the user came from (the shell's link names it, `?w=`), else
// their first one.
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "../../components/shell/app-shell.tsx";
import { PAGE_PATH_HEADER } from "../../security-headers.ts";
import { requireUser } from "../../trpc/session.ts";

async function cameFrom(): Promise<string | null> {
  const page = (await headers()).get(PAGE_PATH_HEADER) ?? "";
  return new URL(page, "http://page.invalid").searchParams.get("w");
}

export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const asked = await cameFrom();
  const workspace = user.workspaces.find((w) => w.id === asked) ?? user.workspaces[0];
  return (
    <AppShell user={user} workspaceId={workspace?.id}>
      {children}
    </AppShell>
  );
}

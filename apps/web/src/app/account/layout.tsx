// The signed-in user's own pages (not tied to a workspace), inside the shell.
import type { ReactNode } from "react";
import { AppShell } from "../../components/shell/app-shell.tsx";
import { requireUser } from "../../trpc/session.ts";

export default async function AccountLayout({ children }: { children: ReactNode }) {
  return <AppShell user={await requireUser()}>{children}</AppShell>;
}

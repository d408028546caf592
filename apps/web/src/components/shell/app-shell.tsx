// The frame of every signed-in page: who is signed in, the workspace switcher and the
// workspace's sections (when inside one), the page itself in <main>.
import Link from "next/link";
import type { ReactNode } from "react";
import type { Role } from "@secondshift/vocabulary";
import { ROLE_WORDS } from "../auth/roles.ts";
import { Badge } from "../ui/badge.tsx";
import { WorkspaceNav } from "./nav.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import { WorkspaceSwitcher } from "./workspace-switcher.tsx";

export interface ShellUser {
  name: string;
  email: string;
  workspaces: ReadonlyArray<{ id: string; name: string; role: Role }>;
}

export function AppShell(props: { user: ShellUser; workspaceId?: string; children: ReactNode }) {
  const current = props.user.workspaces.find((w) => w.id === props.workspaceId);
  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <aside className="flex w-60 shrink-0 flex-col gap-6 border-r border-slate-200 bg-slate-100 p-4">
        <Link href="/" className="text-sm font-semibold tracking-wide text-indigo-800">
          SecondShift
        </Link>
        {current ? (
          <>
            <WorkspaceSwitcher current={current.id} workspaces={props.user.workspaces} />
            <WorkspaceNav workspaceId={current.id} />
          </>
        ) : null}
        <div className="mt-auto flex flex-col gap-2 text-sm">
          <div>
            <p className="font-medium" data-testid="signed-in-user">
              {props.user.name}
            </p>
            <p className="truncate text-xs text-slate-600">{props.user.email}</p>
            {current ? <Badge>{ROLE_WORDS[current.role].name}</Badge> : null}
          </div>
          <Link
            href={current ? `/account/sessions?w=${current.id}` : "/account/sessions"}
            className="text-indigo-700 underline"
          >
            Your sessions
          </Link>
          <SignOutButton />
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1 p-8">
        {props.children}
      </main>
    </div>
  );
}

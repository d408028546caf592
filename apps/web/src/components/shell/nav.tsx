"use client";
// The workspace's sections. The current one is marked for screen readers (aria-current) and
// by more than colour (weight and a bar).
import Link from "next/link";
import { usePathname } from "next/navigation";

export const SECTIONS = [
  { path: "", label: "Overview" },
  { path: "/jobs", label: "Jobs" },
  { path: "/runs", label: "Runs" },
  { path: "/connections", label: "Connections" },
  { path: "/repositories", label: "Repositories" },
  { path: "/providers", label: "Model providers" },
  { path: "/webhooks", label: "Webhooks" },
  { path: "/members", label: "Members" },
  { path: "/audit", label: "Audit log" },
  { path: "/settings", label: "Settings" },
] as const;

export function WorkspaceNav({ workspaceId }: { workspaceId: string }) {
  const pathname = usePathname();
  const base = `/w/${workspaceId}`;
  return (
    <nav aria-label="Workspace">
      <ul className="flex flex-col gap-0.5">
        {SECTIONS.map((section) => {
          const href = `${base}${section.path}`;
          const current = section.path === "" ? pathname === base : pathname.startsWith(href);
          return (
            <li key={section.label}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className="block rounded-md border-l-4 border-transparent px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:border-indigo-700 aria-[current=page]:bg-white aria-[current=page]:font-semibold aria-[current=page]:text-slate-950"
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

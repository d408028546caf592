"use client";
// Switches to another workspace of the user (same section is not assumed: it opens the overview).
import { useRouter } from "next/navigation";
import { useId } from "react";

export function WorkspaceSwitcher(props: {
  current: string;
  workspaces: ReadonlyArray<{ id: string; name: string }>;
}) {
  const router = useRouter();
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        Workspace
      </label>
      <select
        id={id}
        value={props.current}
        onChange={(event) => router.push(`/w/${event.target.value}`)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {props.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}

"use client";
// Switches to another workspace of the user (its overview). Choosing is separate from going:
// arrow keys on a select change its value, and a page must not change under the keyboard.
import { useRouter } from "next/navigation";
import { useId } from "react";
import { Button } from "../ui/button.tsx";
import { formText } from "../ui/form-data.ts";

export function WorkspaceSwitcher(props: {
  current: string;
  workspaces: ReadonlyArray<{ id: string; name: string }>;
}) {
  const router = useRouter();
  const id = useId();
  if (props.workspaces.length < 2) {
    const only = props.workspaces[0];
    return <p className="text-sm font-medium text-slate-800">{only?.name}</p>;
  }
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        router.push(`/w/${formText(new FormData(event.currentTarget), "workspace")}`);
      }}
    >
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        Workspace
      </label>
      <div className="flex gap-1">
        <select
          id={id}
          name="workspace"
          defaultValue={props.current}
          key={props.current}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        >
          {props.workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
        <Button type="submit" tone="secondary">
          Open
        </Button>
      </div>
    </form>
  );
}

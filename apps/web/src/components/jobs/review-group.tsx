"use client";
// One requested group of the access review: the connection it binds to and each tool with its
// data-changing mark, whether the connection allows it, and whether it is new since the last
// approval. Owners choose the connection and may leave tools out; others only read.
import { useId } from "react";
import { Badge } from "../ui/badge.tsx";
import { Label } from "../ui/field.tsx";
import { accessSentences, groupTitle, type GroupKind } from "./review-words.ts";

export interface Group {
  key: string;
  kind: GroupKind;
  label: string | null;
  required: boolean;
  connection: { id: string; label: string } | null;
  candidates: Array<{ id: string; label: string }>;
  tools: Array<{ name: string; mayChangeData: boolean; approved: boolean }>;
}

export interface ConnectionFacts {
  id: string;
  label: string;
  allowedTools: string[];
  discoveredTools: Array<{ name: string; mayChangeData: boolean }>;
}

export interface Choice {
  connectionId: string;
  /** Tools the owner left out (everything the connection allows is in by default). */
  unchecked: string[];
}

interface Props {
  group: Group;
  /** This group's difference from the last approval, when the job was approved before. */
  change: { added: ReadonlyArray<{ name: string }>; unchanged: readonly string[] } | undefined;
  facts: Map<string, ConnectionFacts>;
  choice: Choice;
  editable: boolean;
  onChange: (choice: Choice) => void;
}

export function ReviewGroupCard({ group, change, facts, choice, editable, onChange }: Props) {
  const id = useId();
  const connection = facts.get(choice.connectionId) ?? null;
  const tools = group.tools.map((t) => {
    const discovered = connection?.discoveredTools.find((d) => d.name === t.name);
    return {
      name: t.name,
      mayChangeData: connection ? (discovered?.mayChangeData ?? true) : t.mayChangeData,
      allowed: connection?.allowedTools.includes(t.name) ?? false,
    };
  });
  const granted = tools.filter((t) => t.allowed && !choice.unchecked.includes(t.name));
  const title = groupTitle(group);
  return (
    <article
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 id={`${id}-title`} className="font-semibold text-slate-900">
          {title}
        </h3>
        {group.required ? <Badge tone="info">Required</Badge> : <Badge>Optional</Badge>}
      </header>
      <ConnectionPicker
        id={id}
        group={group}
        choice={choice}
        editable={editable}
        onChange={onChange}
      />
      {connection ? (
        <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm text-slate-800">
          {accessSentences(`${title}`, granted).map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
        </div>
      ) : null}
      <fieldset className="mt-3">
        <legend className="text-sm font-medium text-slate-800">Tools asked for</legend>
        <ul className="mt-1 flex flex-col gap-2">
          {tools.map((tool) => (
            <li key={tool.name} className="flex flex-wrap items-center gap-2 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={tool.allowed && !choice.unchecked.includes(tool.name)}
                  disabled={!editable || !tool.allowed}
                  onChange={(e) =>
                    onChange({
                      ...choice,
                      unchecked: e.target.checked
                        ? choice.unchecked.filter((n) => n !== tool.name)
                        : [...choice.unchecked, tool.name],
                    })
                  }
                />
                <span className="font-mono">{tool.name}</span>
              </label>
              {tool.mayChangeData ? (
                <Badge tone="warn">May change data</Badge>
              ) : (
                <Badge>Read-only</Badge>
              )}
              {connection && !tool.allowed ? (
                <Badge tone="bad">Not allowed on this connection</Badge>
              ) : null}
              {change?.unchanged.includes(tool.name) ? (
                <Badge tone="good">Approved before</Badge>
              ) : change?.added.some((t) => t.name === tool.name) ? (
                <Badge tone="info">New since last approval</Badge>
              ) : null}
            </li>
          ))}
        </ul>
      </fieldset>
    </article>
  );
}

function ConnectionPicker({
  id,
  group,
  choice,
  editable,
  onChange,
}: Omit<Props, "facts" | "change"> & { id: string }) {
  if (group.candidates.length === 0) {
    return (
      <p className="mt-2 text-sm text-amber-900">
        No {groupTitle({ kind: group.kind, label: null })} connection exists yet: an owner must add
        one on the Connections page
        {group.required
          ? " before this job can be approved"
          : "; until then nothing is granted here"}
        .
      </p>
    );
  }
  return (
    <div className="mt-2 flex flex-col gap-1">
      <Label htmlFor={`${id}-connection`}>Connection for {groupTitle(group)}</Label>
      <select
        id={`${id}-connection`}
        value={choice.connectionId}
        disabled={!editable}
        onChange={(e) => onChange({ connectionId: e.target.value, unchecked: [] })}
        className="max-w-md rounded-md border border-slate-300 px-3 py-2 text-sm"
      >
        <option value="">{group.candidates.length > 1 ? "Choose a connection…" : "None"}</option>
        {group.candidates.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
      {group.candidates.length > 1 && !group.connection ? (
        <p className="text-xs text-slate-600">
          Several connections fit; the repository cannot choose one for you.
        </p>
      ) : null}
    </div>
  );
}

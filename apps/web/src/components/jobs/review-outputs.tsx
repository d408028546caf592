// The access review's "Outputs" section (issue #24 phases (a) and (b)): per requested kind a
// grant checkbox, "hold for my approval" (default) or "apply automatically", and limits no
// higher than the request (a comment's or issue's count; a pull request's files and changed
// lines, its draft flag and labels shown as requested, and paths that always wait for the
// owner). Per kind it says what the repository's GitHub App installation lacks, when the review
// could ask GitHub; that never blocks approving. A request grants nothing: unchecked kinds are
// not granted.
import { useState } from "react";
import type { OutputMode } from "@secondshift/vocabulary";
import { parseProtectedPaths, pathsInWords, permissionNote } from "./output-access-words.ts";

type CountKind = "comment" | "issue";
type Kind = CountKind | "pull_request";

interface PullRequestLimits {
  maxFiles: number;
  maxChangedLines: number;
}

/** What the approval sends: only mode and limits (the API refuses any other field). */
export interface OutputChoice {
  comment?: { mode: OutputMode; max: number };
  issue?: { mode: OutputMode; max: number };
  pull_request?: PullRequestLimits & { mode: OutputMode; protectedPaths?: string[] };
}

interface RequestedPullRequest extends PullRequestLimits {
  draft: boolean;
  labels: string[];
}

export interface ReviewOutputsData {
  requested: {
    comment?: { max: number };
    issue?: { max: number };
    pull_request?: RequestedPullRequest;
    threatReview?: true;
  };
  granted: {
    comment?: { max: number; mode: OutputMode };
    issue?: { max: number; mode: OutputMode };
    pull_request?: RequestedPullRequest & { mode: OutputMode; protectedPaths?: string[] };
  };
  available: boolean;
  unavailableReason: string | null;
  permissions: Partial<Record<Kind, string[]>>;
  /** Whether the installation's permissions were read from GitHub (then `missing` says). */
  permissionsChecked: boolean;
  permissionsReason: string | null;
  missing: Partial<Record<Kind, string[]>>;
}

/** The current grant as a choice: only mode and limits. */
export function choiceFromGrant(granted: ReviewOutputsData["granted"]): OutputChoice {
  const choice: OutputChoice = {};
  for (const kind of ["comment", "issue"] as const) {
    const g = granted[kind];
    if (g) choice[kind] = { mode: g.mode, max: g.max };
  }
  const pr = granted.pull_request;
  if (pr)
    choice.pull_request = {
      mode: pr.mode,
      maxFiles: pr.maxFiles,
      maxChangedLines: pr.maxChangedLines,
      ...(pr.protectedPaths?.length ? { protectedPaths: pr.protectedPaths } : {}),
    };
  return choice;
}

const KIND_WORDS: Record<Kind, string> = {
  comment: "Comments on an issue or pull request",
  issue: "New issues",
  pull_request: "Pull requests",
};

const modeWords = (mode: OutputMode) =>
  mode === "auto" ? "applied automatically" : "held for approval";

export function ReviewOutputs({
  outputs,
  choice,
  editable,
  onChange,
}: {
  outputs: ReviewOutputsData;
  choice: OutputChoice;
  editable: boolean;
  onChange: (choice: OutputChoice) => void;
}) {
  const kinds = (Object.keys(KIND_WORDS) as Kind[]).filter((k) => outputs.requested[k]);
  if (kinds.length === 0) return null;
  const canEdit = editable && outputs.available;
  const set = <K extends Kind>(kind: K, value: OutputChoice[K] | undefined) => {
    const next = { ...choice };
    if (value) next[kind] = value;
    else delete next[kind];
    onChange(next);
  };
  return (
    <section
      aria-labelledby="outputs-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800"
    >
      <h3 id="outputs-heading" className="font-semibold text-slate-900">
        Outputs
      </h3>
      {!outputs.available && outputs.unavailableReason ? (
        <p className="mt-2 rounded-md bg-amber-50 p-2 text-amber-900">
          {outputs.unavailableReason}
        </p>
      ) : null}
      <ul className="mt-2 flex flex-col gap-3">
        {kinds.map((kind) =>
          kind === "pull_request" ? (
            <PullRequestRow
              key={kind}
              requested={outputs.requested.pull_request!}
              granted={outputs.granted.pull_request}
              permission={permissionNote(
                outputs,
                outputs.permissions.pull_request ?? [],
                outputs.missing.pull_request,
              )}
              value={choice.pull_request}
              editable={canEdit}
              onChange={(value) => set("pull_request", value)}
            />
          ) : (
            <OutputRow
              key={kind}
              kind={kind}
              requestedMax={outputs.requested[kind]?.max ?? 1}
              granted={outputs.granted[kind]}
              permission={permissionNote(
                outputs,
                outputs.permissions[kind] ?? [],
                outputs.missing[kind],
              )}
              value={choice[kind]}
              editable={canEdit}
              onChange={(value) => set(kind, value)}
            />
          ),
        )}
      </ul>
      <p className="mt-3 text-slate-700">
        {outputs.requested.threatReview
          ? "Threat review: on. Before anything is applied, a model call with a fixed prompt and no tools reviews each proposal for injected instructions, leaks and suspicious code; a warning holds it for you. It counts against the run's budget."
          : "Threat review: off (a job turns it on with outputs.threatReview in .secondshift.yaml)."}
      </p>
    </section>
  );
}

function ModeSelect({
  kind,
  mode,
  onChange,
}: {
  kind: Kind;
  mode: OutputMode;
  onChange: (mode: OutputMode) => void;
}) {
  return (
    <select
      aria-label={`${KIND_WORDS[kind]}: mode`}
      value={mode}
      onChange={(e) => onChange(e.target.value as OutputMode)}
    >
      <option value="hold">Hold for my approval</option>
      <option value="auto">Apply automatically</option>
    </select>
  );
}

/** A whole number from 1 to `max` (typing a higher one keeps the request's limit). */
function LimitInput({
  id,
  label,
  value,
  max,
  width = "w-16",
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  max: number;
  width?: string;
  onChange: (value: number) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={1}
        max={max}
        value={value}
        className={`${width} rounded border border-slate-300 px-1`}
        onChange={(e) =>
          onChange(Math.min(max, Math.max(1, Math.floor(Number(e.target.value)) || 1)))
        }
      />
    </>
  );
}

function OutputRow(props: {
  kind: CountKind;
  requestedMax: number;
  granted: { max: number; mode: OutputMode } | undefined;
  permission: PermissionNote;
  value: { mode: OutputMode; max: number } | undefined;
  editable: boolean;
  onChange: (value: { mode: OutputMode; max: number } | undefined) => void;
}) {
  const { kind, requestedMax, granted, value, editable, onChange } = props;
  return (
    <li className="flex flex-col gap-1">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          disabled={!editable}
          checked={value !== undefined}
          onChange={(e) =>
            onChange(e.target.checked ? { mode: "hold", max: requestedMax } : undefined)
          }
        />
        {KIND_WORDS[kind]} (requested: at most {requestedMax} per run)
      </label>
      {value ? (
        <div className="ml-6 flex items-center gap-3">
          <ModeSelect
            kind={kind}
            mode={value.mode}
            onChange={(mode) => onChange({ ...value, mode })}
          />
          <LimitInput
            id={`output-${kind}`}
            label="At most"
            value={value.max}
            max={requestedMax}
            onChange={(max) => onChange({ ...value, max })}
          />
        </div>
      ) : null}
      <PermissionLine note={props.permission} />
      <p className="ml-6 text-slate-600">
        {granted
          ? `Granted now: at most ${granted.max}, ${modeWords(granted.mode)}.`
          : "Not granted now."}
      </p>
    </li>
  );
}

function PullRequestRow(props: {
  requested: RequestedPullRequest;
  granted: (RequestedPullRequest & { mode: OutputMode; protectedPaths?: string[] }) | undefined;
  permission: PermissionNote;
  value: OutputChoice["pull_request"];
  editable: boolean;
  onChange: (value: OutputChoice["pull_request"]) => void;
}) {
  const { requested, granted, value, editable, onChange } = props;
  const kind = "pull_request" as const;
  const labels = requested.labels.length > 0 ? requested.labels.join(", ") : "none";
  // The owner's lines as typed (a blank line while typing stays); the choice gets them parsed.
  const [pathsText, setPathsText] = useState(() => (value?.protectedPaths ?? []).join("\n"));
  const grantedPaths = granted?.protectedPaths ?? [];
  const typedPaths = parseProtectedPaths(pathsText);
  return (
    <li className="flex flex-col gap-1">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          disabled={!editable}
          checked={value !== undefined}
          onChange={(e) =>
            onChange(
              e.target.checked
                ? {
                    mode: "hold",
                    maxFiles: requested.maxFiles,
                    maxChangedLines: requested.maxChangedLines,
                    ...(typedPaths.length > 0 ? { protectedPaths: typedPaths } : {}),
                  }
                : undefined,
            )
          }
        />
        {KIND_WORDS[kind]} (requested: one per run, at most {requested.maxFiles} files and{" "}
        {requested.maxChangedLines} changed lines)
      </label>
      <p className="ml-6 text-slate-600">
        Opened {requested.draft ? "as a draft" : "ready for review"} on a new{" "}
        <span className="font-mono">secondshift/…</span> branch; labels: {labels}.
      </p>
      {value ? (
        <div className="ml-6 flex flex-wrap items-center gap-3">
          <ModeSelect
            kind={kind}
            mode={value.mode}
            onChange={(mode) => onChange({ ...value, mode })}
          />
          <LimitInput
            id="output-pull_request-files"
            label="Max files"
            value={value.maxFiles}
            max={requested.maxFiles}
            onChange={(maxFiles) => onChange({ ...value, maxFiles })}
          />
          <LimitInput
            id="output-pull_request-lines"
            label="Max changed lines"
            value={value.maxChangedLines}
            max={requested.maxChangedLines}
            width="w-24"
            onChange={(maxChangedLines) => onChange({ ...value, maxChangedLines })}
          />
        </div>
      ) : null}
      {value ? (
        <div className="ml-6 flex flex-col gap-1">
          <label htmlFor="output-pull_request-paths">
            Paths that always wait for my approval (one per line, at most 20): a folder such as{" "}
            <span className="font-mono">migrations/</span> or a file such as{" "}
            <span className="font-mono">db/schema.sql</span>.{" "}
            <span className="font-mono">.github/</span> and{" "}
            <span className="font-mono">.secondshift.yaml</span> always wait.
          </label>
          <textarea
            id="output-pull_request-paths"
            rows={3}
            value={pathsText}
            className="w-full max-w-md rounded border border-slate-300 px-1 font-mono"
            onChange={(e) => {
              setPathsText(e.target.value);
              const { protectedPaths: _old, ...rest } = value;
              const paths = parseProtectedPaths(e.target.value);
              onChange(paths.length > 0 ? { ...rest, protectedPaths: paths } : rest);
            }}
          />
        </div>
      ) : null}
      <PermissionLine note={props.permission} />
      <p className="ml-6 text-slate-600">
        {granted
          ? `Granted now: at most ${granted.maxFiles} files and ${granted.maxChangedLines} changed lines, ${modeWords(granted.mode)}${grantedPaths.length > 0 ? `; changes to ${pathsInWords(grantedPaths)} wait for approval` : ""}.`
          : "Not granted now."}
      </p>
    </li>
  );
}

type PermissionNote = ReturnType<typeof permissionNote>;

/** What the GitHub App lacks (a warning), that it has what is needed, or what it needs. */
function PermissionLine({ note }: { note: PermissionNote }) {
  const tone =
    note.tone === "warn"
      ? "rounded-md bg-amber-50 p-2 text-amber-900"
      : note.tone === "ok"
        ? "text-emerald-800"
        : "text-slate-600";
  return (
    <p className={`ml-6 ${tone}`} role={note.tone === "warn" ? "status" : undefined}>
      {note.text}
    </p>
  );
}

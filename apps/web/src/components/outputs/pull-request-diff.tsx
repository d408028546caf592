"use client";
// A proposed pull request as the owner reviews it before approving (issue #24 phase (b)): the
// branch it would open from and to, draft or not, its size, and each changed file's unified
// diff line by line (added green, removed red, hunk headers grey; the +/− sign stays, so colour
// is never the only signal). A long patch shows its first lines and offers the rest. Every
// patch is text from the run: React renders it as text, never as markup.
import { useId, useState } from "react";
import { Badge, type BadgeTone } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import type { OutputView } from "./output-card.tsx";

export type PullRequestView = NonNullable<OutputView["pullRequest"]>;
type FileView = PullRequestView["files"][number];

/** Lines a patch shows before "Show all N lines". */
export const COLLAPSED_LINES = 200;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 files changed, +12 −4" (a real minus sign, as GitHub writes it). */
export function changeSummary(totals: PullRequestView["totals"]): string {
  return `${plural(totals.files, "file", "files")} changed, +${totals.additions} −${totals.deletions}`;
}

export function PullRequestSummary({ pullRequest }: { pullRequest: PullRequestView }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span className="font-mono text-xs" data-testid="pr-branches">
        {pullRequest.headBranch || "secondshift/…"} → {pullRequest.baseBranch || "default branch"}
      </span>
      {pullRequest.draft ? <Badge>Draft</Badge> : <Badge tone="info">Ready for review</Badge>}
      <span data-testid="pr-totals">{changeSummary(pullRequest.totals)}</span>
    </div>
  );
}

const STATUS: Record<FileView["status"], { word: string; tone: BadgeTone }> = {
  added: { word: "added", tone: "good" },
  modified: { word: "modified", tone: "info" },
  deleted: { word: "deleted", tone: "bad" },
};

/** What the file's git mode says beyond "a file" (its content of a link is the target). */
function modeWord(mode: FileView["mode"]): string | null {
  if (mode === "100755") return "executable";
  if (mode === "120000") return "symbolic link";
  return null;
}

export function PullRequestDiff({ pullRequest }: { pullRequest: PullRequestView }) {
  if (pullRequest.files.length === 0)
    return (
      <p className="mt-2 text-sm text-slate-600">
        The changed files are listed once the run has ended and its changes were checked.
      </p>
    );
  return (
    <div className="mt-3 flex flex-col gap-3">
      {pullRequest.files.map((file) => (
        <FileDiff key={file.path} file={file} />
      ))}
    </div>
  );
}

function FileDiff({ file }: { file: FileView }) {
  const headingId = useId();
  const status = STATUS[file.status];
  const mode = modeWord(file.mode);
  return (
    <section
      aria-labelledby={headingId}
      data-testid="pr-file"
      className="overflow-hidden rounded-md border border-slate-200"
    >
      <h3
        id={headingId}
        className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm font-normal text-slate-900"
      >
        <span className="font-mono font-medium break-all">{file.path}</span>
        <Badge tone={status.tone}>{status.word}</Badge>
        {mode ? <Badge tone="warn">{mode}</Badge> : null}
        <span className="text-xs text-slate-700">
          <span className="text-green-800">+{file.additions}</span>{" "}
          <span className="text-red-800">−{file.deletions}</span>
        </span>
      </h3>
      <Patch patch={file.patch} path={file.path} />
    </section>
  );
}

type LineKind = "add" | "del" | "hunk" | "context" | "note";

const LINE_STYLE: Record<LineKind, string> = {
  add: "bg-green-50 text-green-900",
  del: "bg-red-50 text-red-900",
  hunk: "bg-slate-100 text-slate-700",
  context: "text-slate-800",
  note: "text-slate-600 italic",
};

/**
 * The patch's lines from its first hunk on (the `Index:` / `---` / `+++` header repeats the
 * path shown above). A patch without a hunk is a note ("too large a change to show here").
 */
export function patchLines(patch: string): Array<{ kind: LineKind; text: string }> {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const first = lines.findIndex((l) => l.startsWith("@@"));
  if (first < 0) return lines.map((text) => ({ kind: "note", text }));
  return lines.slice(first).map((text) => ({
    kind: text.startsWith("@@")
      ? "hunk"
      : text.startsWith("+")
        ? "add"
        : text.startsWith("-")
          ? "del"
          : text.startsWith("\\")
            ? "note"
            : "context",
    text,
  }));
}

function Patch({ patch, path }: { patch: string; path: string }) {
  const [expanded, setExpanded] = useState(false);
  const lines = patchLines(patch);
  if (lines.length === 0)
    return <p className="px-3 py-2 text-sm text-slate-600">No change to the text.</p>;
  const shown = expanded ? lines : lines.slice(0, COLLAPSED_LINES);
  return (
    <div>
      <div
        role="region"
        aria-label={`Changes to ${path}`}
        tabIndex={0}
        className="max-h-[40rem] overflow-auto"
      >
        <pre className="py-1 font-mono text-xs leading-5">
          {shown.map((line, i) => (
            <span
              key={i}
              data-line={line.kind}
              className={`block px-3 whitespace-pre ${LINE_STYLE[line.kind]}`}
            >
              {line.text === "" ? " " : line.text}
            </span>
          ))}
        </pre>
      </div>
      {shown.length < lines.length ? (
        <div className="border-t border-slate-200 px-3 py-2">
          <Button tone="secondary" onClick={() => setExpanded(true)}>
            Show all {lines.length} lines
          </Button>
        </div>
      ) : null}
    </div>
  );
}

"use client";
// Long output folded: the first lines, and a "Show all" toggle for the rest. ANSI colours are
// rendered as styled spans; everything is React text.
import { useState } from "react";
import { AnsiText } from "./ansi-text.tsx";

const FOLD_LINES = 12;
const FOLD_CHARS = 1_500;

function folded(text: string): string | null {
  const lines = text.split("\n");
  if (lines.length > FOLD_LINES) return lines.slice(0, FOLD_LINES).join("\n");
  if (text.length > FOLD_CHARS) return text.slice(0, FOLD_CHARS);
  return null;
}

export function FoldedText({ text, label }: { text: string; label: string }) {
  const [open, setOpen] = useState(false);
  const short = folded(text);
  const shown = open || short === null ? text : short;
  return (
    <div>
      <pre
        tabIndex={0}
        className="max-h-[40rem] overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap break-words text-slate-100"
      >
        <AnsiText text={shown} />
        {short !== null && !open ? <span className="text-slate-400">{"\n"}…</span> : null}
      </pre>
      {short !== null ? (
        <button
          type="button"
          aria-expanded={open}
          className="mt-1 text-xs font-medium text-indigo-700 underline"
          onClick={() => setOpen((v) => !v)}
        >
          {open
            ? `Show less of ${label}`
            : `Show all of ${label} (${text.split("\n").length} lines)`}
        </button>
      ) : null}
    </div>
  );
}

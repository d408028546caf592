"use client";
// The transcript's lines as a virtual list (TanStack Virtual): only the lines in and near the
// viewport are in the DOM, each measured (lines differ in height), so a 10,000-event run
// scrolls as smoothly as a short one. It opens at the newest line; scrolling near the top asks
// for the older page, and the view stays on the line it showed while those are prepended
// (anchorTo "end"); at the bottom, it follows each new event (followOnAppend).
//
// CSP: positions and the list's height are written by the virtualizer through element.style
// after hydration (directDomUpdates; CSSOM is allowed, a server-rendered style attribute is
// not). The server's HTML and the first client render are the newest lines in plain flow,
// bottom-aligned by flex-col-reverse, so the first paint shows the latest events.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { TranscriptRow } from "./conversation.ts";
import { TranscriptLine } from "./transcript-event.tsx";

/** Lines in the server-rendered first paint, before the virtual list takes over. */
const FIRST_PAINT_LINES = 30;
/** Load the older page when the view is this close to the top (pixels). */
const LOAD_OLDER_WITHIN_PX = 800;

const SCROLLER =
  "max-h-[70vh] overflow-y-auto rounded-lg border border-slate-200 bg-white px-4 py-2 [overflow-anchor:none]";

export interface TranscriptListProps {
  rows: TranscriptRow[];
  hasOlder: boolean;
  loadOlder: () => void;
}

export function TranscriptList(props: TranscriptListProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return <FirstPaintList rows={props.rows} />;
  return <VirtualList {...props} />;
}

function FirstPaintList({ rows }: { rows: TranscriptRow[] }) {
  return (
    <div className={`${SCROLLER} flex flex-col-reverse`}>
      <ol aria-label="Transcript events" className="flex flex-col">
        {rows.slice(-FIRST_PAINT_LINES).map(({ entry, repeats }) => (
          <TranscriptLine key={entry.seq} entry={entry} repeats={repeats} />
        ))}
      </ol>
    </div>
  );
}

function VirtualList({ rows, hasOlder, loadOlder }: TranscriptListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // About a typical line (a message ~50 px, a command output ~140): a close estimate keeps
    // the corrections small as unmeasured lines are measured on the way up.
    estimateSize: () => 88,
    overscan: 8,
    getItemKey: (index) => rows[index]?.entry.seq ?? index,
    directDomUpdates: true,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: 24,
  });
  const [opened, setOpened] = useState(false);
  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
    setOpened(true);
  }, [virtualizer]);

  // Asked from the scroll position itself, not from the rendered range: while a page just
  // prepended is being anchored the range still says "top" for a moment, and asking then would
  // prepend a second page before the first one's anchoring landed.
  const nearTop = () => (scrollRef.current?.scrollTop ?? Infinity) < LOAD_OLDER_WITHIN_PX;
  const maybeLoadOlder = () => {
    if (opened && hasOlder && nearTop()) loadOlder();
  };
  // Once opened: a page shorter than the view never scrolls, so look once without a scroll.
  useEffect(() => {
    if (opened && hasOlder && nearTop()) loadOlder();
  }, [opened]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      // Focusable, so the keyboard scrolls it; a named region, so the name is announced.
      role="region"
      tabIndex={0}
      aria-label="Transcript, scrollable"
      className={SCROLLER}
      onScroll={maybeLoadOlder}
    >
      <ol ref={virtualizer.containerRef} aria-label="Transcript events" className="relative w-full">
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <TranscriptLine
              key={item.key}
              entry={row.entry}
              repeats={row.repeats}
              index={item.index}
              measureRef={virtualizer.measureElement}
              positioned
            />
          );
        })}
      </ol>
    </div>
  );
}

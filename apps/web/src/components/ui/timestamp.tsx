"use client";
// Every date and time the web app shows: a <time> with the ISO instant and, on hover, the exact
// UTC time. The server and the hydrating browser render the exact UTC text (the same bytes, so
// no hydration mismatch); once hydrated, the browser switches to a relative time that follows
// a shared clock.
import { useSyncExternalStore } from "react";
import { formatInZone, formatRelative, formatUtc } from "./time-format.ts";

const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** 0 until the first Timestamp subscribes (and always on the server): render the exact time. */
function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => 0,
  );
}

export function Timestamp(props: {
  value: Date | null | undefined;
  /** The exact UTC time only (e.g. a time a user compares with a log). */
  exact?: boolean;
  /** Shown in this IANA time zone instead (a job's schedule); the hover stays UTC. */
  timeZone?: string;
}) {
  const current = useNow();
  if (!props.value) return <>—</>;
  const exact = formatUtc(props.value);
  const text = props.timeZone
    ? formatInZone(props.value, props.timeZone)
    : props.exact || current === 0
      ? exact
      : formatRelative(props.value, current);
  return (
    <time dateTime={props.value.toISOString()} title={exact}>
      {text}
    </time>
  );
}

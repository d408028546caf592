// Small display helpers for the runs screens: durations and token counts in words
// (times: components/ui/time-format.ts and Timestamp).

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

export function formatTokens(n: number): string {
  return new Intl.NumberFormat("en-GB").format(n);
}

export function shortId(id: string): string {
  return id.slice(-8);
}

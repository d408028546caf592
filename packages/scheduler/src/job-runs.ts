// Fires share the job's run lock and the QUEUED insert with "run now"; both live in the run
// lifecycle (@secondshift/run-lifecycle, queued-run.ts) so the two can never drift apart.

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002"
  );
}

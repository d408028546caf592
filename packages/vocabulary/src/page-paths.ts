// Where the web app serves a thing: the paths links are built from, in the worker's webhook
// reports as on the pages, so a link we send is always one the web app answers.

/** A run's page: runs live in their workspace. */
export function runPagePath(workspaceId: string, runId: string): string {
  return `/w/${encodeURIComponent(workspaceId)}/runs/${encodeURIComponent(runId)}`;
}

/** The workspace-less form reports carried before; the web app redirects it to runPagePath. */
export function legacyRunPath(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

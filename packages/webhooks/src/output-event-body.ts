// The JSON body of an output event (issue #24), documented by schema/output-event.schema.json:
// sent when an output of a finished run is applied to GitHub or fails there after the run's own
// report. Built from the rows only and passed through the secret maskers, like a run report.
import type { SecretMasker } from "@secondshift/logging";
import { runPagePath } from "@secondshift/vocabulary";
import { reportOutput, type OutputSource, type ReportOutput } from "./report-body.ts";

export const OUTPUT_APPLIED_EVENT = "output.applied";
export const OUTPUT_FAILED_EVENT = "output.failed";
export type OutputEvent = typeof OUTPUT_APPLIED_EVENT | typeof OUTPUT_FAILED_EVENT;

export interface OutputEventBody {
  event: OutputEvent;
  output: ReportOutput;
  /** `path` is the run's page in the web app (runPagePath), `link` the same as a full URL. */
  run: { id: string; path: string; link: string };
  job: { key: string; name: string };
  repository: { fullName: string };
}

export interface OutputEventSource {
  output: OutputSource & { workspaceId: string; runId: string };
  job: { key: string; name: string };
  repository: { fullName: string };
  /** The run's page as the run report links it (`${publicUrl}${runPagePath(…)}`). */
  link: string;
}

/** Null for an output that is neither applied nor failed: there is no event to send. */
export function outputEventOf(state: string): OutputEvent | null {
  if (state === "APPLIED") return OUTPUT_APPLIED_EVENT;
  if (state === "FAILED") return OUTPUT_FAILED_EVENT;
  return null;
}

export function buildOutputEventBody(
  source: OutputEventSource,
  maskers: readonly SecretMasker[],
): OutputEventBody | null {
  const event = outputEventOf(source.output.state);
  if (event === null) return null;
  const { output } = source;
  const body: OutputEventBody = {
    event,
    output: reportOutput(output),
    run: {
      id: output.runId,
      path: runPagePath(output.workspaceId, output.runId),
      link: source.link,
    },
    job: { key: source.job.key, name: source.job.name },
    repository: { fullName: source.repository.fullName },
  };
  return maskers.reduce((value, masker) => masker.maskValue(value), body);
}

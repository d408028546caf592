// get_workflow_run_logs: the run's jobs and failed steps, plus the end of each failed job's log
// (where errors are), instead of the whole zip archive. Logs are untrusted text: anyone who can
// open a pull request can write into them.
import type { RestResponse } from "../shared/rest.ts";

interface Job {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  steps?: { name: string; number: number; conclusion: string | null }[];
}

const MAX_LOGS = 3;

export async function summariseRunLogs(
  jobsJson: string,
  maxBytes: number,
  fetchLog: (jobId: string) => Promise<RestResponse>,
): Promise<string> {
  let jobs: Job[];
  try {
    jobs = ((JSON.parse(jobsJson) as { jobs?: Job[] }).jobs ?? []).filter((j) =>
      Number.isInteger(j.id),
    );
  } catch {
    return "GitHub answered with a job list that is not JSON.";
  }
  const lines = [`${jobs.length} job(s):`];
  for (const job of jobs) {
    lines.push(
      `- ${job.name} (id ${job.id}): ${job.status}${job.conclusion ? `, ${job.conclusion}` : ""}`,
    );
    for (const step of job.steps ?? []) {
      if (step.conclusion === "failure") lines.push(`    failed step ${step.number}: ${step.name}`);
    }
  }
  const failed = jobs.filter((j) => j.conclusion === "failure").slice(0, MAX_LOGS);
  const budget = Math.max(
    512,
    Math.floor((maxBytes - Buffer.byteLength(lines.join("\n"))) / Math.max(1, failed.length)) - 128,
  );
  for (const job of failed) {
    const log = await fetchLog(String(job.id));
    if (log.status !== 200) {
      lines.push(`\n--- log of ${job.name}: not available (HTTP ${log.status}) ---`);
      continue;
    }
    const tail = tailBytes(log.text, budget);
    lines.push(
      `\n--- last ${Buffer.byteLength(tail)} bytes of the log of ${job.name} ---\n${tail}`,
    );
  }
  return lines.join("\n");
}

function tailBytes(text: string, max: number): string {
  const buf = Buffer.from(text);
  if (buf.byteLength <= max) return text;
  let start = buf.byteLength - max;
  while (start < buf.byteLength && ((buf[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return buf.subarray(start).toString();
}

// For tests of /readyz: read a service's readiness answer, and poll it until it is what the test
// waits for (a status code, or any condition on the report).
import type { StartedService } from "./index.ts";

export interface ReadinessReport {
  status: string;
  checks: Array<{ name: string; ok: boolean; message: string }>;
}

export interface ReadyzAnswer {
  /** 0 while nothing answers on the port. */
  code: number;
  report?: ReadinessReport;
}

export async function readyzOf(port: number): Promise<ReadyzAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
  if (!res) return { code: 0 };
  return { code: res.status, report: (await res.json()) as ReadinessReport };
}

/** The names of the checks that failed. */
export const failedChecks = (report?: ReadinessReport): string[] =>
  report?.checks.filter((c) => !c.ok).map((c) => c.name) ?? [];

/**
 * Polls /readyz until `want` holds (a status code, or a condition) or `ms` passed; returns the
 * last answer. Given the service, fails at once when its process has ended.
 */
export async function waitForReadyz(
  port: number,
  want: number | ((answer: ReadyzAnswer) => boolean),
  options: { service?: StartedService; ms?: number } = {},
): Promise<ReadyzAnswer> {
  const holds = typeof want === "number" ? (a: ReadyzAnswer) => a.code === want : want;
  const deadline = Date.now() + (options.ms ?? 60_000);
  let last = await readyzOf(port);
  while (!holds(last) && Date.now() < deadline) {
    const service = options.service;
    if (service && service.child.exitCode !== null)
      throw new Error(`the service exited:\n${service.output()}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await readyzOf(port);
  }
  return last;
}

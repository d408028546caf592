import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { MASK, SecretMasker } from "@secondshift/logging";
import { buildReportBody, MAX_SUMMARY_CHARS, type ReportSource } from "./report-body.ts";
import { MAX_ATTEMPTS, nextRetryDelayMs, RETRY_DELAYS_MS } from "./retry-schedule.ts";

const schema = JSON.parse(
  await readFile(new URL("../schema/report.schema.json", import.meta.url), "utf8"),
) as object;
// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const source = (run: Partial<ReportSource["run"]> = {}): ReportSource => ({
  run: {
    id: "0190f0a0-0000-7000-8000-000000000001",
    status: "SUCCEEDED",
    trigger: "SCHEDULE",
    commitSha: "a".repeat(40),
    startedAt: new Date("2026-01-05T10:00:00.000Z"),
    finishedAt: new Date("2026-01-05T10:00:42.500Z"),
    error: null,
    summary: "Triaged 3 issues.",
    inputTokens: 1200,
    outputTokens: 300,
    tokensUsed: 1500,
    budgetTokens: 50000,
    ...run,
  },
  job: { key: "nightly", name: "Nightly triage" },
  repository: { fullName: "acme/widgets" },
  link: "https://secondshift.example.test/runs/0190f0a0",
});

describe("report body", () => {
  it("builds the documented shape and validates against schema/report.schema.json", () => {
    const body = buildReportBody(source(), []);
    expect(body).toEqual({
      run: {
        id: "0190f0a0-0000-7000-8000-000000000001",
        status: "succeeded",
        trigger: "schedule",
        commit: "a".repeat(40),
        startedAt: "2026-01-05T10:00:00.000Z",
        finishedAt: "2026-01-05T10:00:42.500Z",
        durationMs: 42_500,
        summary: "Triaged 3 issues.",
      },
      job: { key: "nightly", name: "Nightly triage" },
      repository: { fullName: "acme/widgets" },
      usage: { inputTokens: 1200, outputTokens: 300, totalTokens: 1500, budgetTokens: 50000 },
      link: "https://secondshift.example.test/runs/0190f0a0",
    });
    expect(validate(JSON.parse(JSON.stringify(body))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("a failed run that never started (no commit, no timings, an error) validates too", () => {
    const body = buildReportBody(
      source({
        status: "FAILED",
        commitSha: null,
        startedAt: null,
        finishedAt: null,
        summary: null,
        error: "Missing grant.",
      }),
      [],
    );
    expect(body.run).toMatchObject({
      status: "failed",
      commit: null,
      durationMs: null,
      error: "Missing grant.",
    });
    expect(body.run).not.toHaveProperty("summary");
    expect(validate(JSON.parse(JSON.stringify(body))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("an event run's report names its event (kind, number, title, link, sender), never its bodies", () => {
    const body = buildReportBody(
      {
        ...source({ trigger: "EVENT" }),
        event: {
          kind: "pull_request",
          action: "synchronize",
          subjectType: "pull_request",
          subjectNumber: 42,
          subjectTitle: "Speed up the parser",
          subjectUrl: "https://github.com/acme/widgets/pull/42",
          actorLogin: "octocat",
        },
      },
      [],
    );
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body.run.trigger).toBe("event");
    expect(body.event).toEqual({
      kind: "pull_request",
      action: "synchronize",
      subject: {
        type: "pull_request",
        number: 42,
        title: "Speed up the parser",
        url: "https://github.com/acme/widgets/pull/42",
      },
      sender: "octocat",
    });
  });

  it("the schema rejects bodies that drift from it", () => {
    const body = JSON.parse(JSON.stringify(buildReportBody(source(), []))) as {
      run: Record<string, unknown>;
      extra?: unknown;
    };
    expect(validate({ ...body, extra: 1 })).toBe(false);
    expect(validate({ ...body, run: { ...body.run, status: "SUCCEEDED" } })).toBe(false);
  });

  it("[P02] a secret planted in the run summary and error is masked in the body", () => {
    const planted = 'sk-ant-planted"secret\\value-9876543210';
    const masker = new SecretMasker();
    masker.add(planted);
    const body = buildReportBody(
      source({
        status: "FAILED",
        summary: `Found key ${planted} in config`,
        error: `auth failed with ${planted}`,
      }),
      [masker],
    );
    const text = JSON.stringify(body);
    expect(text).not.toContain("sk-ant-planted");
    expect(body.run.summary).toBe(`Found key ${MASK} in config`);
    expect(body.run.error).toBe(`auth failed with ${MASK}`);
    expect(validate(JSON.parse(text))).toBe(true);
  });

  it("caps a very long summary", () => {
    const body = buildReportBody(source({ summary: "x".repeat(MAX_SUMMARY_CHARS * 2) }), []);
    expect(body.run.summary?.length).toBeLessThan(MAX_SUMMARY_CHARS + 20);
    expect(validate(JSON.parse(JSON.stringify(body)))).toBe(true);
  });
});

describe("retry schedule", () => {
  it("backs off exponentially over about an hour, with bounded jitter, then stops", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(55 * 60_000);
    expect(total).toBeLessThanOrEqual(65 * 60_000);
    expect(nextRetryDelayMs(1, () => 0.5)).toBe(30_000);
    expect(nextRetryDelayMs(1, () => 0)).toBe(27_000);
    expect(nextRetryDelayMs(1, () => 0.999999)).toBeLessThanOrEqual(33_000);
    expect(nextRetryDelayMs(7, () => 0.5)).toBe(30 * 60_000);
    expect(nextRetryDelayMs(MAX_ATTEMPTS, () => 0.5)).toBeNull();
  });
});

// The output event body (issue #24): the documented shape, what each state sends, and that a
// secret value in a reason leaves masked. The run report lists a run's outputs.
import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { MASK, SecretMasker } from "@secondshift/logging";
import { buildOutputEventBody, type OutputEventSource } from "./output-event-body.ts";
import { buildReportBody } from "./report-body.ts";

const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;
async function validator(file: string) {
  const schema = JSON.parse(
    await readFile(new URL(`../schema/${file}`, import.meta.url), "utf8"),
  ) as object;
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}
const validateEvent = await validator("output-event.schema.json");
const validateReport = await validator("report.schema.json");

const source = (output: Partial<OutputEventSource["output"]> = {}): OutputEventSource => ({
  output: {
    id: "0190f0a0-0000-7000-8000-0000000000aa",
    workspaceId: "ws-1",
    runId: "0190f0a0-0000-7000-8000-000000000001",
    kind: "issue",
    state: "APPLIED",
    resultUrl: "https://github.com/acme/widgets/issues/7",
    reason: null,
    ...output,
  },
  job: { key: "nightly", name: "Nightly triage" },
  repository: { fullName: "acme/widgets" },
  link: "https://secondshift.example.test/w/ws-1/runs/0190f0a0-0000-7000-8000-000000000001",
});

describe("output event body", () => {
  it("output.applied carries the output, its URL, the run id and the run's page path", () => {
    const body = buildOutputEventBody(source(), []);
    expect(body).toEqual({
      event: "output.applied",
      output: {
        id: "0190f0a0-0000-7000-8000-0000000000aa",
        kind: "issue",
        state: "applied",
        resultUrl: "https://github.com/acme/widgets/issues/7",
      },
      run: {
        id: "0190f0a0-0000-7000-8000-000000000001",
        path: "/w/ws-1/runs/0190f0a0-0000-7000-8000-000000000001",
        link: "https://secondshift.example.test/w/ws-1/runs/0190f0a0-0000-7000-8000-000000000001",
      },
      job: { key: "nightly", name: "Nightly triage" },
      repository: { fullName: "acme/widgets" },
    });
    expect(
      validateEvent(JSON.parse(JSON.stringify(body))),
      JSON.stringify(validateEvent.errors),
    ).toBe(true);
  });

  it("output.failed carries the reason, masked; other states send nothing", () => {
    const masker = new SecretMasker();
    masker.add("ghs_secretvalue123456");
    const body = buildOutputEventBody(
      source({
        state: "FAILED",
        resultUrl: null,
        reason: "GitHub refused it ghs_secretvalue123456",
      }),
      [masker],
    );
    expect(body?.event).toBe("output.failed");
    expect(body?.output).toEqual({
      id: "0190f0a0-0000-7000-8000-0000000000aa",
      kind: "issue",
      state: "failed",
      reason: `GitHub refused it ${MASK}`,
    });
    expect(JSON.stringify(body)).not.toContain("ghs_secretvalue123456");
    expect(validateEvent(JSON.parse(JSON.stringify(body)))).toBe(true);
    for (const state of ["HELD", "READY", "APPLYING", "REFUSED"])
      expect(buildOutputEventBody(source({ state }), [])).toBeNull();
  });

  it("a run report lists each output's kind and state; a run without outputs has no field", () => {
    const run = {
      id: "0190f0a0-0000-7000-8000-000000000001",
      status: "SUCCEEDED",
      trigger: "SCHEDULE",
      commitSha: null,
      startedAt: null,
      finishedAt: null,
      error: null,
      summary: null,
      inputTokens: 0,
      outputTokens: 0,
      tokensUsed: 0,
      budgetTokens: 1,
    };
    const base = { run, job: source().job, repository: source().repository, link: source().link };
    expect(buildReportBody({ ...base, outputs: [] }, [])).not.toHaveProperty("outputs");
    const outputs = [
      { id: "o1", kind: "comment", state: "READY", resultUrl: null, reason: null },
      { id: "o2", kind: "issue", state: "HELD", resultUrl: null, reason: "Waiting for an owner." },
    ];
    const body = buildReportBody({ ...base, outputs }, []);
    expect(body.outputs).toEqual([
      { id: "o1", kind: "comment", state: "ready" },
      { id: "o2", kind: "issue", state: "held", reason: "Waiting for an owner." },
    ]);
    expect(
      validateReport(JSON.parse(JSON.stringify(body))),
      JSON.stringify(validateReport.errors),
    ).toBe(true);
  });
});

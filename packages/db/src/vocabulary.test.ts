// @secondshift/vocabulary spells the database's enums without importing Prisma (the web app's
// pages run it in the browser); these keep its lists equal to the schema's.
import {
  AUDIT_TARGET_TYPES,
  OUTPUT_STATES,
  ROLES,
  RUN_STATUSES,
  type AuditTargetType,
  type OutputState as VocabularyOutputState,
  type Role as VocabularyRole,
  type RunStatus as VocabularyRunStatus,
} from "@secondshift/vocabulary";
import { describe, expect, expectTypeOf, it } from "vitest";
import { OutputState, Prisma, Role, RunStatus } from "./index.ts";

describe("the vocabulary's lists are the schema's", () => {
  it("run statuses, in the schema's order", () => {
    expect(RUN_STATUSES).toEqual(Object.values(RunStatus));
    expectTypeOf<VocabularyRunStatus>().toEqualTypeOf<RunStatus>();
  });

  it("output states, in the schema's order", () => {
    expect(OUTPUT_STATES).toEqual(Object.values(OutputState));
    expectTypeOf<VocabularyOutputState>().toEqualTypeOf<OutputState>();
  });

  it("roles, in the schema's order", () => {
    expect(ROLES).toEqual(Object.values(Role));
    expectTypeOf<VocabularyRole>().toEqualTypeOf<Role>();
  });

  it("audit target types are model names", () => {
    const models: readonly string[] = Object.values(Prisma.ModelName);
    expect(AUDIT_TARGET_TYPES.filter((t) => !models.includes(t))).toEqual([]);
    expectTypeOf<AuditTargetType>().toExtend<Prisma.ModelName>();
  });
});

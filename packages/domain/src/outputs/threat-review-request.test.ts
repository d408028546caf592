// `outputs.threatReview` (issue #24 phase c) in the request and the grant: a job that asks for
// the review has a different request (an owner re-approves), a job without it keeps its hash,
// and the grant copies it from the request.
import { describe, expect, it } from "vitest";
import { decideOutputs } from "../jobs/grant-outputs.ts";
import { requestHash } from "../request.ts";
import { hasOutputs, readGrantedOutputs, readRequestedOutputs } from "./stored.ts";

const comment = { max: 2, target: "triggering" as const };
const groups = [{ kind: "GITHUB" as const, label: null, required: false, tools: ["get_issue"] }];
const available = { available: true as const, connectionId: "c1" };

describe("threatReview in the request and the grant", () => {
  it("keeps the hash of a job without it and changes the hash of a job with it", () => {
    const before = requestHash(groups, { comment });
    // The value a sync stored before the key existed, and one with it off, hash the same.
    expect(requestHash(groups, readRequestedOutputs({ comment, threatReview: false }))).toBe(
      before,
    );
    expect(requestHash(groups, { comment, threatReview: true })).not.toBe(before);
    // Alone it requests nothing: the hash of a job without outputs.
    expect(requestHash(groups, { threatReview: true })).toBe(requestHash(groups, {}));
    expect(hasOutputs({ threatReview: true })).toBe(false);
  });

  it("reads it back only when true and after the kinds", () => {
    const stored = readRequestedOutputs({ threatReview: true, comment });
    expect(Object.keys(stored)).toEqual(["comment", "threatReview"]);
    expect(readRequestedOutputs({ comment, threatReview: "yes" })).toEqual({ comment });
  });

  it("is copied into the grant when a kind is granted, and read back from it", () => {
    const granted = decideOutputs(
      { comment, threatReview: true },
      { comment: { mode: "auto" } },
      available,
    );
    expect(granted).toEqual({ comment: { ...comment, mode: "auto" }, threatReview: true });
    expect(readGrantedOutputs(granted)).toEqual(granted);
    expect(decideOutputs({ comment, threatReview: true }, {}, available)).toEqual({});
    expect(decideOutputs({ comment }, { comment: {} }, available)).toEqual({
      comment: { ...comment, mode: "hold" },
    });
  });
});

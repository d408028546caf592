import { expect, it } from "vitest";
import { readConfigErrors } from "./config-errors.ts";

const whole = { file: ".secondshift.yaml", line: 3, column: 5, path: "jobs.a", message: "bad" };

it("keeps only whole config errors, without extra fields", () => {
  expect(
    readConfigErrors([
      { ...whole, extra: "dropped" },
      { message: "no place" },
      { ...whole, line: "3" },
      "junk",
      null,
    ]),
  ).toEqual([whole]);
});

it("reads anything that is not a list as no errors", () => {
  for (const value of [null, undefined, {}, "errors", whole]) {
    expect(readConfigErrors(value)).toEqual([]);
  }
});

import { describe, expect, it } from "vitest";
import { parseProtectedPaths, pathsInWords, permissionNote } from "./output-access-words.ts";
import { outputSentences } from "./review-words.ts";

const checked = { available: true, permissionsChecked: true, permissionsReason: null };
const needs = ["Contents: write", "Pull requests: write"];

describe("the access review's words about outputs access", () => {
  it("[O02] says what the GitHub App lacks in a warning, or that it has what is needed", () => {
    expect(permissionNote(checked, needs, ["Pull requests: write"])).toEqual({
      tone: "warn",
      text: "The GitHub App lacks: Pull requests: write — ask the GitHub organisation owner to grant it.",
    });
    expect(permissionNote(checked, needs, [])).toEqual({
      tone: "ok",
      text: "The GitHub App has the permissions needed.",
    });
  });

  it("[O02] without a check, names what is needed and why GitHub was not asked", () => {
    const down = {
      available: true,
      permissionsChecked: false,
      permissionsReason: "SecondShift could not ask GitHub what the App may do: HTTP 502.",
    };
    expect(permissionNote(down, needs, undefined)).toEqual({
      tone: "plain",
      text: "The GitHub App needs Contents: write, Pull requests: write. SecondShift could not ask GitHub what the App may do: HTTP 502.",
    });
    const plainGit = { available: false, permissionsChecked: false, permissionsReason: "no app" };
    expect(permissionNote(plainGit, ["Issues: write"], undefined).text).toBe(
      "The GitHub App needs Issues: write.",
    );
  });

  it("[O04] reads protected paths one per line and names them in the approval", () => {
    expect(parseProtectedPaths(" migrations/\n\ndb/schema.sql \nmigrations/\n")).toEqual([
      "migrations/",
      "db/schema.sql",
    ]);
    expect(pathsInWords(["a/", "b", "c.sql"])).toBe('"a/", "b" and "c.sql"');
    expect(
      outputSentences({
        pull_request: {
          mode: "auto",
          maxFiles: 3,
          maxChangedLines: 50,
          protectedPaths: ["migrations/"],
        },
      }),
    ).toEqual([
      "Pull requests: one per run, at most 3 files and 50 changed lines, applied automatically.",
      'A pull request changing "migrations/" always waits for your approval.',
    ]);
  });
});

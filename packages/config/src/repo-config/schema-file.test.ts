import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { repoConfigSchema } from "./schema.ts";
import { schemaFilePath, schemaFileText } from "./scripts/write-schema.ts";

describe("published schema", () => {
  it("matches the TS source (run npm run schema:write -w @secondshift/config)", async () => {
    expect(await readFile(schemaFilePath, "utf8")).toBe(schemaFileText());
  });

  it("compiles in ajv strict mode", () => {
    expect(() => new Ajv2020({ strict: true }).compile(repoConfigSchema)).not.toThrow();
  });
});

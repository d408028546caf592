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
    // Union types are plain JSON Schema (`on.commentCommand` is true or a map); the rest of
    // strict mode stays on, as in validator.ts.
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(() => ajv.compile(repoConfigSchema)).not.toThrow();
  });
});

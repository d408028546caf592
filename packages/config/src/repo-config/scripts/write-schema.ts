// Writes the published JSON Schema from the TS source. `--check` exits 1 when the committed
// file differs (the test in schema-file.test.ts does the same check in CI).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { repoConfigSchema } from "../schema.ts";

export const schemaFilePath = fileURLToPath(
  new URL("../../../schema/secondshift.schema.json", import.meta.url),
);
export const schemaFileText = (): string => `${JSON.stringify(repoConfigSchema, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const current = await readFile(schemaFilePath, "utf8").catch(() => "");
    if (current !== schemaFileText()) {
      console.error(
        "schema/secondshift.schema.json is out of date: run npm run schema:write -w @secondshift/config",
      );
      process.exit(1);
    }
  } else {
    await writeFile(schemaFilePath, schemaFileText());
    console.log(`Wrote ${schemaFilePath}`);
  }
}

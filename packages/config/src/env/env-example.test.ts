// `.env.example` documents every setting the services read and nothing they do not: each key of
// the web, gateway and worker schemas appears there (set, or commented out with its default),
// and each key there is read by a schema or by the compose files (the deployment's own values).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gatewayEnvSchema, webEnvSchema, workerEnvSchema } from "./services.ts";

const root = join(import.meta.dirname, "../../../..");
const example = readFileSync(join(root, ".env.example"), "utf8");
const compose = ["compose.yaml", "compose.override.yaml"]
  .map((file) => readFileSync(join(root, file), "utf8"))
  .join("\n");

const documented = new Set(
  [...example.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!),
);
const read = new Set(
  [webEnvSchema, gatewayEnvSchema, workerEnvSchema].flatMap((schema) => Object.keys(schema.shape)),
);

describe(".env.example", () => {
  it("documents every setting a service reads", () => {
    expect([...read].filter((key) => !documented.has(key))).toEqual([]);
  });

  it("documents nothing that neither a service nor the compose files read", () => {
    const unread = [...documented].filter(
      (key) => !read.has(key) && !compose.includes(`\${${key}`),
    );
    expect(unread).toEqual([]);
  });
});

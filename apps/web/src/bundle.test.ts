// What the browser downloads (the built app's .next/static): no server code, no configuration
// names, no column that holds a secret. The pages import workspace packages for types only;
// this catches a runtime import that would drag server code (and its strings) into the bundle.
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const STATIC = resolve(import.meta.dirname, "..", ".next", "static");
const SERVER_ONLY = [
  "PrismaClient",
  "@prisma/",
  "DATABASE_URL",
  "REDIS_URL",
  "SECONDSHIFT_ENCRYPTION_KEY",
  "argon2",
  "libsodium",
  "ioredis",
  "apiKeyCiphertext",
  "passwordHash",
  "tokenHash",
  "webhookSecretCiphertext",
];

it("[P04] the browser bundle holds no server code, configuration name or secret column", async () => {
  const files = (await readdir(STATIC, { recursive: true })).filter((f) => /\.(js|css)$/.test(f));
  expect(files.length, "run `npm run build -w @secondshift/web` first").toBeGreaterThan(0);
  const found: string[] = [];
  for (const file of files) {
    const text = await readFile(join(STATIC, file), "utf8");
    for (const marker of SERVER_ONLY) if (text.includes(marker)) found.push(`${file}: ${marker}`);
  }
  expect(found).toEqual([]);
});

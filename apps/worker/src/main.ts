// Worker entry: validates configuration and proves the encryption key matches the stored data
// before any processor starts.
import { createKeyring } from "@secondshift/crypto";
import { createDb, ensureKeyCheck } from "@secondshift/db";
import { createLogger } from "@secondshift/logging";

async function main() {
  const { env } = await import("./env.ts").catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
  const logger = createLogger({ name: "worker", level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL);
  const keyring = createKeyring(env.SECONDSHIFT_ENCRYPTION_KEY, env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS);
  await ensureKeyCheck(db, keyring).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
  logger.info("worker configuration and encryption key verified");
  await db.$disconnect();
}

void main();

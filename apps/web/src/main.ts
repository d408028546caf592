// Web app entry: validates configuration, proves the encryption key matches the stored data,
// then serves. The owner UI and tRPC API mount here; for now it serves the health endpoint.
import { createServer } from "node:http";
import { createKeyring } from "@secondshift/crypto";
import { createDb, ensureKeyCheck } from "@secondshift/db";
import { createLogger } from "@secondshift/logging";
import { fatal } from "./fatal.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL);
  const keyring = createKeyring(
    env.SECONDSHIFT_ENCRYPTION_KEY,
    env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
  );
  await ensureKeyCheck(db, keyring).catch(fatal);

  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      db.$queryRaw`SELECT 1`
        .then(() => {
          res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
        })
        .catch(() => {
          res
            .writeHead(503, { "content-type": "application/json" })
            .end('{"status":"database unavailable"}');
        });
      return;
    }
    res
      .writeHead(404, { "content-type": "application/json" })
      .end('{"error":{"code":"NOT_FOUND","message":"No such page."}}');
  });
  server.listen(env.PORT, () => logger.info({ port: env.PORT }, "web listening"));
  const stop = () => {
    logger.info("shutting down");
    server.close(() => void db.$disconnect().then(() => process.exit(0)));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

void main();

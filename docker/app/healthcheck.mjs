// The compose health check of the service containers (plain node, no dependencies).
//   node healthcheck.mjs http      GET http://127.0.0.1:$PORT/readyz must answer 2xx (web,
//                                  gateway, worker): database reachable and migrated, Redis, key
//                                  check, and for the worker Docker, runsc and the sandbox image.
//                                  A failure prints the answer, which names the failed checks
//                                  (`docker inspect` shows it under State.Health).
//   node healthcheck.mjs worker    older form: the worker's PostgreSQL and Redis accept a TCP
//                                  connection (kept for images of an earlier compose file).
// HEALTHCHECK_URL, when set, replaces either check with a GET of that URL.
import { connect } from "node:net";

const TIMEOUT_MS = 3000;

async function httpOk(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
}

function tcpOk(rawUrl, defaultPort) {
  const url = new URL(rawUrl);
  const port = Number(url.port || defaultPort);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port, timeout: TIMEOUT_MS });
    socket.once("connect", () => (socket.end(), resolve()));
    socket.once(
      "timeout",
      () => (socket.destroy(), reject(new Error(`${url.hostname}:${port} timed out`))),
    );
    socket.once("error", (err) => reject(new Error(`${url.hostname}:${port}: ${err.message}`)));
  });
}

async function check(mode) {
  if (process.env.HEALTHCHECK_URL) return httpOk(process.env.HEALTHCHECK_URL);
  if (mode === "http") return httpOk(`http://127.0.0.1:${process.env.PORT ?? "3000"}/readyz`);
  if (mode === "worker") {
    await tcpOk(process.env.DATABASE_URL ?? "", 5432);
    await tcpOk(process.env.REDIS_URL ?? "", 6379);
    return;
  }
  throw new Error(`unknown mode ${mode}; use http or worker`);
}

check(process.argv[2]).then(
  () => process.exit(0),
  (err) => {
    console.error(`unhealthy: ${err.message}`);
    process.exit(1);
  },
);

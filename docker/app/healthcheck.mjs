// The compose health check of the service containers (plain node, no dependencies).
//   node healthcheck.mjs http      GET http://127.0.0.1:$PORT/healthz must answer 2xx (web, gateway)
//   node healthcheck.mjs worker    the worker serves no HTTP yet: its PostgreSQL and Redis must
//                                  accept a TCP connection from inside the container.
// HEALTHCHECK_URL, when set, replaces either check with a GET of that URL: the hook for the
// worker's own /healthz (or /readyz) once it serves one.
import { connect } from "node:net";

const TIMEOUT_MS = 3000;

async function httpOk(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
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
  if (mode === "http") return httpOk(`http://127.0.0.1:${process.env.PORT ?? "3000"}/healthz`);
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

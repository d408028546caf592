// A sandbox host over mutual TLS: the test's engine behind a TLS endpoint on 127.0.0.1 that
// requires a client certificate from the installation's CA (as `dockerd --tlsverify` does). The
// worker's settings (from its environment) reach it and run a real gVisor sandbox; a client
// without a certificate, or with one another CA signed, is refused at the handshake and never
// reaches the engine; an engine whose certificate names another address is refused by the worker.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadWorkerEnv } from "@secondshift/config";
import { createKeyring } from "@secondshift/crypto";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createSandboxManager, sandboxReadinessChecks } from "@secondshift/sandbox";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDockerClient, dockerConnection } from "./docker.ts";
import { settingsFromEnv } from "./settings.ts";
import { makeCertificates, startMtlsEndpoint, type MtlsEndpoint } from "./testing/mtls.ts";

const dir = mkdtempSync(join(tmpdir(), "worker-mtls-"));
const certs = makeCertificates(dir);
const socketPath = "/var/run/docker.sock";
let engine: MtlsEndpoint;
let wrongName: MtlsEndpoint;

beforeAll(async () => {
  engine = await startMtlsEndpoint({ ca: certs.ca, ...certs.server, socketPath });
  wrongName = await startMtlsEndpoint({ ca: certs.ca, ...certs.wrongNameServer, socketPath });
});

afterAll(async () => {
  await Promise.all([engine?.close(), wrongName?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The worker's settings as main.ts builds them, in production, for this engine. */
function productionSettings(dockerHost: string, certPath: string) {
  const key = randomBytes(32);
  const env = loadWorkerEnv({
    SECONDSHIFT_ENV: "production",
    DATABASE_URL: "postgresql://unused@127.0.0.1:1/unused",
    REDIS_URL: "redis://127.0.0.1:1",
    SECONDSHIFT_PUBLIC_URL: "https://secondshift.example.com",
    SECONDSHIFT_GATEWAY_URL: "http://127.0.0.1:1",
    SECONDSHIFT_ENCRYPTION_KEY: key.toString("base64"),
    DOCKER_HOST: dockerHost,
    DOCKER_TLS_VERIFY: "1",
    DOCKER_CERT_PATH: certPath,
    SANDBOX_IMAGE: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
  });
  return settingsFromEnv(env, createKeyring(new Uint8Array(key)));
}

/** What an engine request through `docker` fails with (its code, or its message). */
async function failure(docker: Docker): Promise<string> {
  return docker.ping().then(
    () => "answered",
    (error: NodeJS.ErrnoException) => error.code ?? error.message,
  );
}

describe("sandbox host over mutual TLS", () => {
  it("the worker's client runs a real gVisor sandbox through the TLS endpoint", async () => {
    const settings = productionSettings(`tcp://127.0.0.1:${engine.port}`, certs.clientDir);
    expect(settings.docker).toMatchObject({ protocol: "https", port: engine.port });
    const docker = createDockerClient(settings.docker);
    const before = engine.accepted();
    const manager = createSandboxManager({
      docker,
      ...settings.sandbox,
      production: true,
      installationId: settings.installation.id,
      logger: createLogger({ name: "mtls-test", destination: createMemorySink().stream }),
    });
    const sandbox = await manager.create({
      runId: `mtls-${randomBytes(4).toString("hex")}`,
      workspaceId: "ws-mtls",
      deadline: new Date(Date.now() + 5 * 60_000),
    });
    try {
      const result = await sandbox.exec("echo over-tls && dmesg | head -1");
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^over-tls\n/);
      expect(result.stdout).toContain("Starting gVisor");
      const info = await docker.getContainer(sandbox.id).inspect();
      expect(info.HostConfig.Runtime).toBe("runsc");
    } finally {
      await sandbox.destroy();
    }
    expect(engine.accepted()).toBeGreaterThan(before);
  });

  it("a client without a certificate, or with one from another CA, is refused at the handshake", async () => {
    const before = engine.accepted();
    const refusedBefore = engine.refused().length;
    const noCertificate = new Docker({
      host: "127.0.0.1",
      port: engine.port,
      protocol: "https",
      ca: certs.ca,
      socketPath: undefined,
    });
    expect(await failure(noCertificate)).toBe("ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED");
    const otherCa = createDockerClient(
      dockerConnection({
        dockerHost: `tcp://127.0.0.1:${engine.port}`,
        tlsVerify: true,
        certPath: certs.otherCaClientDir,
        production: true,
      }),
    );
    expect(await failure(otherCa)).not.toBe("answered");
    // Both stopped in the TLS handshake: the server logged the refusals, and neither connection
    // was ever piped to the engine.
    expect(engine.accepted()).toBe(before);
    const refused = engine.refused().slice(refusedBefore);
    expect(refused).toHaveLength(2);
    // No certificate: OpenSSL fails the handshake itself. Another CA's: Node's verification at
    // the end of the handshake drops the connection before any request is read.
    expect(refused[0]).toBe("ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE");
  });

  it("the worker refuses an engine whose certificate names another address (the server name is checked)", async () => {
    const settings = productionSettings(`tcp://127.0.0.1:${wrongName.port}`, certs.clientDir);
    const docker = createDockerClient(settings.docker);
    expect(await failure(docker)).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(wrongName.accepted()).toBe(0);
    // The worker's /readyz says which side to look at.
    const [engineCheck] = sandboxReadinessChecks(docker, { ...settings.sandbox, production: true });
    await expect(engineCheck!.check()).rejects.toThrow(
      /ERR_TLS_CERT_ALTNAME_INVALID.*must name the host in DOCKER_HOST/,
    );
  });
});

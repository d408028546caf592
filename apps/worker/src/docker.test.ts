// DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH reach dockerode through the settings
// only: the process environment does not. TLS files are read once and checked, and every
// refusal says what to set.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDockerClient, dockerConnection, type DockerSettingsInput } from "./docker.ts";
import { makeCertificates } from "./testing/mtls.ts";

const saved = process.env.DOCKER_HOST;
afterEach(() => {
  if (saved === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = saved;
});

const dir = mkdtempSync(join(tmpdir(), "worker-docker-tls-"));
const certs = makeCertificates(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dev = (dockerHost?: string): DockerSettingsInput => ({
  dockerHost,
  tlsVerify: false,
  production: false,
});
const tls = (dockerHost: string, certPath?: string): DockerSettingsInput => ({
  dockerHost,
  tlsVerify: true,
  certPath,
  production: true,
});
const modemOf = (c: ReturnType<typeof dockerConnection>) =>
  createDockerClient(c).modem as unknown as Record<string, unknown>;

describe("DOCKER_HOST", () => {
  it("parses unix sockets and, outside production, plain tcp host:port, defaulting to /var/run/docker.sock", () => {
    expect(dockerConnection(dev())).toEqual({ socketPath: "/var/run/docker.sock" });
    expect(dockerConnection({ ...dev(), production: true })).toEqual({
      socketPath: "/var/run/docker.sock",
    });
    expect(dockerConnection(dev("unix:///run/user/1000/docker.sock"))).toEqual({
      socketPath: "/run/user/1000/docker.sock",
    });
    expect(dockerConnection(dev("tcp://127.0.0.1:2375"))).toEqual({
      host: "127.0.0.1",
      port: 2375,
      protocol: "http",
    });
    expect(dockerConnection(dev("tcp://[::1]:2380"))).toMatchObject({ host: "::1", port: 2380 });
  });

  it("refuses what it cannot honour, saying what to set", () => {
    for (const bad of ["https://host:2376", "tcp://host:2375/prefix", "nonsense"]) {
      expect(() => dockerConnection(dev(bad))).toThrow(
        /unix:\/\/\/path\/to\/docker\.sock or tcp:\/\/host:port/,
      );
    }
    expect(() => dockerConnection(dev("ssh://user@host"))).toThrow(
      /ssh:\/\/… is not supported.*DOCKER_TLS_VERIFY=1.*DOCKER_CERT_PATH/,
    );
    expect(() => dockerConnection({ ...dev("unix:///x.sock"), tlsVerify: true })).toThrow(
      /DOCKER_TLS_VERIFY applies to a tcp:\/\/ DOCKER_HOST only/,
    );
  });

  it("production refuses plain tcp:// (root on that host for anyone on the network) and says how to set up TLS", () => {
    const error = (() => {
      try {
        dockerConnection({ ...dev("tcp://sandbox-1.internal:2375"), production: true });
      } catch (e) {
        return e as Error & { reason?: string };
      }
    })();
    expect(error?.reason).toBe("DOCKER_PLAIN_TCP_REFUSED");
    expect(error?.message).toMatch(/DOCKER_TLS_VERIFY=1/);
    expect(error?.message).toMatch(/DOCKER_CERT_PATH.*ca\.pem, cert\.pem and key\.pem/);
    expect(error?.message).toMatch(/dockerd --tlsverify/);
    expect(error?.message).toMatch(/SECONDSHIFT_ENV=development/);
  });

  it("the client uses the configured engine even when the environment names another", () => {
    process.env.DOCKER_HOST = "tcp://127.0.0.9:9999";
    expect(modemOf(dockerConnection(dev("unix:///tmp/engine.sock")))).toMatchObject({
      socketPath: "/tmp/engine.sock",
      host: undefined,
    });
    expect(modemOf(dockerConnection(dev()))).toMatchObject({
      socketPath: "/var/run/docker.sock",
      host: undefined,
    });
    expect(modemOf(dockerConnection(dev("tcp://127.0.0.1:2375")))).toMatchObject({
      host: "127.0.0.1",
      port: 2375,
      protocol: "http",
      key: undefined,
    });
  });
});

describe("DOCKER_TLS_VERIFY and DOCKER_CERT_PATH", () => {
  it("reads ca.pem, cert.pem and key.pem once and hands them to dockerode over https (default port 2376)", () => {
    const connection = dockerConnection(tls("tcp://sandbox-1.internal", certs.clientDir));
    expect(connection).toMatchObject({ host: "sandbox-1.internal", port: 2376, protocol: "https" });
    const modem = modemOf(connection);
    expect(modem).toMatchObject({ host: "sandbox-1.internal", port: 2376, protocol: "https" });
    expect(String(modem.ca)).toContain("BEGIN CERTIFICATE");
    expect(String(modem.cert)).toContain("BEGIN CERTIFICATE");
    expect(String(modem.key)).toContain("PRIVATE KEY");
  });

  it("the private key never shows when the settings are serialised or inspected", () => {
    const connection = dockerConnection(tls("tcp://127.0.0.1:2376", certs.clientDir));
    for (const text of [JSON.stringify(connection), inspect(connection, { depth: 5 })]) {
      expect(text).not.toMatch(/PRIVATE KEY/);
      expect(text).not.toMatch(/"key"/);
    }
  });

  it("names the missing, unreadable or wrong file, and never shows a file's content", () => {
    const folder = join(dir, "broken");
    const fresh = () => {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder);
      for (const name of ["ca.pem", "cert.pem", "key.pem"])
        copyFileSync(join(certs.clientDir, name), join(folder, name));
    };
    const message = (certPath?: string) => {
      try {
        dockerConnection(tls("tcp://127.0.0.1:2376", certPath));
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message(undefined)).toMatch(/DOCKER_TLS_VERIFY=1 needs DOCKER_CERT_PATH/);
    expect(message("certs")).toMatch(/must be an absolute path/);
    for (const name of ["ca.pem", "cert.pem", "key.pem"]) {
      fresh();
      unlinkSync(join(folder, name));
      expect(message(folder)).toContain(`${join(folder, name)} (`);
      expect(message(folder)).toMatch(/does not exist/);
    }
    fresh();
    copyFileSync(join(certs.otherCaClientDir, "key.pem"), join(folder, "key.pem"));
    expect(message(folder)).toMatch(/key\.pem is not the key of cert\.pem/);
    fresh();
    copyFileSync(join(folder, "key.pem"), join(folder, "cert.pem"));
    const wrong = message(folder);
    expect(wrong).toMatch(/cert\.pem is not a PEM certificate/);
    expect(wrong).not.toMatch(/PRIVATE KEY|BEGIN/);
    if (process.getuid?.() !== 0) {
      fresh();
      chmodSync(join(folder, "key.pem"), 0o000);
      expect(message(folder)).toMatch(/key\.pem .* is not readable/);
    }
  });
});

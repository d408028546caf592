import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { loadGatewayEnv, loadWebEnv, loadWorkerEnv } from "./services.ts";

const key = randomBytes(32).toString("base64");
const base = {
  DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
  SECONDSHIFT_ENCRYPTION_KEY: key,
  REDIS_URL: "redis://127.0.0.1:6379",
  SECONDSHIFT_PUBLIC_URL: "https://ss.example.com",
  SECONDSHIFT_GATEWAY_URL: "http://gateway:4000",
};

function failure(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

const loaders = { web: loadWebEnv, gateway: loadGatewayEnv, worker: loadWorkerEnv };
const requiredBy: Record<keyof typeof loaders, string[]> = {
  web: ["DATABASE_URL", "SECONDSHIFT_ENCRYPTION_KEY", "REDIS_URL", "SECONDSHIFT_PUBLIC_URL"],
  gateway: ["DATABASE_URL", "SECONDSHIFT_ENCRYPTION_KEY"],
  worker: [
    "DATABASE_URL",
    "SECONDSHIFT_ENCRYPTION_KEY",
    "REDIS_URL",
    "SECONDSHIFT_PUBLIC_URL",
    "SECONDSHIFT_GATEWAY_URL",
  ],
};

describe("gateway forwarding settings", () => {
  it("[C14] anthropic-beta values and provider tools default to none and parse as comma lists", () => {
    const env = loadGatewayEnv(base);
    expect([env.GATEWAY_ANTHROPIC_BETA, env.GATEWAY_ALLOWED_PROVIDER_TOOLS]).toEqual([[], []]);
    const set = loadGatewayEnv({
      ...base,
      GATEWAY_ANTHROPIC_BETA: "files-api-2025-04-14, mcp-client-2025-04-04",
      GATEWAY_ALLOWED_PROVIDER_TOOLS: "web_search,code_execution",
    });
    expect(set.GATEWAY_ANTHROPIC_BETA).toEqual(["files-api-2025-04-14", "mcp-client-2025-04-04"]);
    expect(set.GATEWAY_ALLOWED_PROVIDER_TOOLS).toEqual(["web_search", "code_execution"]);
    const error = failure(() =>
      loadGatewayEnv({ ...base, GATEWAY_ALLOWED_PROVIDER_TOOLS: "Web Search" }),
    );
    expect(error.variables).toEqual(["GATEWAY_ALLOWED_PROVIDER_TOOLS"]);
  });
});

describe("service environments", () => {
  for (const [service, load] of Object.entries(loaders)) {
    it(`${service}: accepts a complete environment with safe defaults`, () => {
      const env = load(base);
      expect(env.SECONDSHIFT_ENV).toBe("production");
      expect(env.SECONDSHIFT_ENCRYPTION_KEY).toHaveLength(32);
    });

    for (const variable of requiredBy[service as keyof typeof loaders]) {
      it(`${service}: a missing ${variable} stops the service with a message naming it`, () => {
        const error = failure(() => load({ ...base, [variable]: undefined }));
        expect(error.variables).toEqual([variable]);
        expect(error.message).toContain(`${variable}: is missing`);
      });

      it(`${service}: a malformed ${variable} stops the service with a message naming it`, () => {
        const error = failure(() => load({ ...base, [variable]: "ftp://nope" }));
        expect(error.variables).toContain(variable);
        expect(error.message).toContain(variable);
      });
    }
  }

  it("the key message says how to generate a key and never echoes the bad value", () => {
    const bad = randomBytes(16).toString("base64");
    const error = failure(() => loadGatewayEnv({ ...base, SECONDSHIFT_ENCRYPTION_KEY: bad }));
    expect(error.message).toMatch(/SECONDSHIFT_ENCRYPTION_KEY: .*32 bytes.*randomBytes\(32\)/);
    expect(error.message).not.toContain(bad);
    const missing = failure(() =>
      loadGatewayEnv({ ...base, SECONDSHIFT_ENCRYPTION_KEY: undefined }),
    );
    expect(missing.message).toContain("randomBytes(32).toString('base64')");
  });

  it("METRICS_PORT: unset or empty means no metrics endpoint; a bad one is named", () => {
    for (const load of Object.values(loaders)) {
      expect(load(base).METRICS_PORT).toBeUndefined();
      expect(load({ ...base, METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
      expect(load({ ...base, METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
      expect(failure(() => load({ ...base, METRICS_PORT: "0" })).variables).toEqual([
        "METRICS_PORT",
      ]);
    }
    // The worker's /healthz and /readyz port.
    expect(loadWorkerEnv(base).PORT).toBe(4100);
  });

  it("reports every bad variable at once", () => {
    const error = failure(() => loadWorkerEnv({ SANDBOX_MEMORY_MB: "lots", PORT: "1" }));
    expect(error.variables).toEqual(
      expect.arrayContaining([
        "DATABASE_URL",
        "SECONDSHIFT_ENCRYPTION_KEY",
        "REDIS_URL",
        "SANDBOX_MEMORY_MB",
      ]),
    );
    expect(error.message).toContain("SANDBOX_MEMORY_MB: must be a whole number of MiB");
  });

  it("parses previous keys and names a bad entry", () => {
    const previous = [randomBytes(32).toString("base64"), randomBytes(32).toString("base64")].join(
      ", ",
    );
    expect(
      loadGatewayEnv({ ...base, SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: previous })
        .SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
    ).toHaveLength(2);
    const error = failure(() =>
      loadGatewayEnv({ ...base, SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: `${key},short` }),
    );
    expect(error.message).toContain("SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: ");
    expect(error.message).toContain("entry 2");
  });

  it("the sandbox's writable areas must fit in its memory (gVisor holds them there), with the arithmetic in the message", () => {
    expect(loadWorkerEnv(base).SANDBOX_MEMORY_MB).toBe(2048);
    const error = failure(() =>
      loadWorkerEnv({ ...base, SANDBOX_MEMORY_MB: "1024", SANDBOX_WORKSPACE_MB: "1024" }),
    );
    expect(error.variables).toEqual(["SANDBOX_MEMORY_MB"]);
    expect(error.message).toContain(
      "SANDBOX_MEMORY_MB: is 1024 MiB, but SANDBOX_WORKSPACE_MB (1024) + SANDBOX_TMP_MB (256) + 256 MiB for processes and per-file overhead = 1536 MiB",
    );
    const fits = { ...base, SANDBOX_MEMORY_MB: "1024", SANDBOX_WORKSPACE_MB: "512" };
    expect(loadWorkerEnv(fits).SANDBOX_WORKSPACE_MB).toBe(512);
    // The repository must fit in /workspace, and leave room for new files.
    expect(failure(() => loadWorkerEnv({ ...fits, REPOSITORY_MAX_MB: "512" })).variables).toEqual([
      "REPOSITORY_MAX_MB",
    ]);
    expect(
      failure(() => loadWorkerEnv({ ...fits, SANDBOX_WORKSPACE_MAX_FILES: "100000" })).variables,
    ).toEqual(["SANDBOX_WORKSPACE_MAX_FILES"]);
  });

  it("[C13] production refuses the runc sandbox runtime", () => {
    const error = failure(() => loadWorkerEnv({ ...base, SANDBOX_RUNTIME: "runc" }));
    expect(error.variables).toEqual(["SANDBOX_RUNTIME"]);
    expect(error.message).toContain("gVisor");
    expect(failure(() => loadWorkerEnv({ ...base, SANDBOX_ALLOW_RUNC: "true" })).variables).toEqual(
      ["SANDBOX_ALLOW_RUNC"],
    );
    const dev = loadWorkerEnv({
      ...base,
      SECONDSHIFT_ENV: "development",
      SANDBOX_RUNTIME: "runc",
      SANDBOX_ALLOW_RUNC: "true",
    });
    expect(dev.SANDBOX_RUNTIME).toBe("runc");
  });

  it("the worker takes Docker's TLS variables and an installation id, an empty value counting as unset", () => {
    const env = loadWorkerEnv({
      ...base,
      DOCKER_HOST: "tcp://sandbox-1.internal:2376",
      DOCKER_TLS_VERIFY: "1",
      DOCKER_CERT_PATH: "/etc/secondshift/docker",
      SECONDSHIFT_INSTALLATION_ID: "acme-prod",
    });
    expect(env).toMatchObject({
      DOCKER_TLS_VERIFY: true,
      DOCKER_CERT_PATH: "/etc/secondshift/docker",
      SECONDSHIFT_INSTALLATION_ID: "acme-prod",
    });
    const unset = loadWorkerEnv({
      ...base,
      DOCKER_TLS_VERIFY: "",
      DOCKER_CERT_PATH: "",
      SECONDSHIFT_INSTALLATION_ID: "",
    });
    expect(unset.DOCKER_TLS_VERIFY).toBe(false);
    expect(unset.DOCKER_CERT_PATH).toBeUndefined();
    expect(unset.SECONDSHIFT_INSTALLATION_ID).toBeUndefined();
    for (const bad of ["Acme", "acme prod", "-acme", "a".repeat(64), "acme=prod"]) {
      const error = failure(() => loadWorkerEnv({ ...base, SECONDSHIFT_INSTALLATION_ID: bad }));
      expect(error.variables).toEqual(["SECONDSHIFT_INSTALLATION_ID"]);
      expect(error.message).toContain("lowercase letters, digits");
    }
    expect(failure(() => loadWorkerEnv({ ...base, DOCKER_TLS_VERIFY: "on" })).variables).toEqual([
      "DOCKER_TLS_VERIFY",
    ]);
  });

  it("the worker's work folder must be a folder of its own (it is emptied at start)", () => {
    for (const shared of ["/", "/tmp", "/tmp/", "/var", tmpdir(), homedir(), "work", "../x"]) {
      const error = failure(() => loadWorkerEnv({ ...base, WORKER_WORK_DIR: shared }));
      expect(error.variables, shared).toEqual(["WORKER_WORK_DIR"]);
      expect(error.message).toContain("WORKER_WORK_DIR: must");
    }
    expect(
      loadWorkerEnv({ ...base, WORKER_WORK_DIR: "/var/lib/secondshift/work" }).WORKER_WORK_DIR,
    ).toBe("/var/lib/secondshift/work");
    expect(loadWorkerEnv(base).WORKER_WORK_DIR).toBeUndefined();
  });

  it("rejects an unknown deployment mode and bad ports", () => {
    expect(failure(() => loadWebEnv({ ...base, SECONDSHIFT_ENV: "prod" })).variables).toEqual([
      "SECONDSHIFT_ENV",
    ]);
    expect(failure(() => loadWebEnv({ ...base, PORT: "70000" })).message).toContain(
      "PORT: must be between 1 and 65535",
    );
  });
});

describe("web settings", () => {
  it("requires the setup token unless the operator turns it off", () => {
    expect(loadWebEnv(base).SECONDSHIFT_SETUP_TOKEN_REQUIRED).toBe(true);
    expect(
      loadWebEnv({ ...base, SECONDSHIFT_SETUP_TOKEN_REQUIRED: "false" })
        .SECONDSHIFT_SETUP_TOKEN_REQUIRED,
    ).toBe(false);
  });

  it("lets owners create workspaces by default; anyone or operator-only on request; nothing else", () => {
    expect(loadWebEnv(base).SECONDSHIFT_WORKSPACE_CREATION).toBe("owners");
    for (const policy of ["anyone", "operator-only", "owners"] as const) {
      expect(
        loadWebEnv({ ...base, SECONDSHIFT_WORKSPACE_CREATION: policy })
          .SECONDSHIFT_WORKSPACE_CREATION,
      ).toBe(policy);
    }
    const error = failure(() => loadWebEnv({ ...base, SECONDSHIFT_WORKSPACE_CREATION: "all" }));
    expect(error.message).toContain("SECONDSHIFT_WORKSPACE_CREATION");
  });

  it("an event older than 20 minutes starts nothing by default; the age is a bounded whole number", () => {
    expect(loadWebEnv(base).SECONDSHIFT_MAX_EVENT_AGE_SECONDS).toBe(1200);
    expect(
      loadWebEnv({ ...base, SECONDSHIFT_MAX_EVENT_AGE_SECONDS: "300" })
        .SECONDSHIFT_MAX_EVENT_AGE_SECONDS,
    ).toBe(300);
    for (const bad of ["0", "1.5", "86401", "soon"]) {
      const error = failure(() => loadWebEnv({ ...base, SECONDSHIFT_MAX_EVENT_AGE_SECONDS: bad }));
      expect(error.message).toContain("SECONDSHIFT_MAX_EVENT_AGE_SECONDS");
    }
  });

  it("trusts no proxy by default; trusted proxies are CIDR ranges, anything else is named", () => {
    expect(loadWebEnv(base).SECONDSHIFT_TRUSTED_PROXIES).toEqual([]);
    expect(
      loadWebEnv({ ...base, SECONDSHIFT_TRUSTED_PROXIES: "10.0.0.0/8, ::1/128" })
        .SECONDSHIFT_TRUSTED_PROXIES,
    ).toEqual(["10.0.0.0/8", "::1/128"]);
    for (const bad of ["10.0.0.1", "10.0.0.0/33", "proxy.internal/8", "::1/129"]) {
      const error = failure(() => loadWebEnv({ ...base, SECONDSHIFT_TRUSTED_PROXIES: bad }));
      expect(error.message).toContain("SECONDSHIFT_TRUSTED_PROXIES");
      expect(error.message).toContain(`"${bad}" is not a CIDR range`);
    }
  });
});

describe("SECONDSHIFT_EXTRA_CA_CERTS", () => {
  const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;

  it("reads every certificate of the file, for each service; unset or empty is none", async () => {
    const { generate } = await import("selfsigned");
    const one = (await generate([{ name: "commonName", value: "Corp CA 1" }])).cert;
    const two = (await generate([{ name: "commonName", value: "Corp CA 2" }])).cert;
    const dir = mkdtempSync(join(tmpdir(), "ca-setting-"));
    const file = join(dir, "corp.pem");
    writeFileSync(file, `# the operator's CAs\n${one}\n${two}`);
    for (const load of Object.values(loaders)) {
      expect(
        load({ ...base, SECONDSHIFT_EXTRA_CA_CERTS: file }).SECONDSHIFT_EXTRA_CA_CERTS,
      ).toEqual([one.trim(), two.trim()]);
      expect(load({ ...base, SECONDSHIFT_EXTRA_CA_CERTS: "" }).SECONDSHIFT_EXTRA_CA_CERTS).toEqual(
        [],
      );
      expect(load(base).SECONDSHIFT_EXTRA_CA_CERTS).toEqual([]);
    }
  });

  it("stops the service at start, naming the file, when it is missing or holds no valid certificate", () => {
    const dir = mkdtempSync(join(tmpdir(), "ca-setting-"));
    const missing = join(dir, "absent.pem");
    expect(
      failure(() => loadWorkerEnv({ ...base, SECONDSHIFT_EXTRA_CA_CERTS: missing })).message,
    ).toContain(`cannot read ${missing} (ENOENT)`);
    const empty = join(dir, "empty.pem");
    writeFileSync(empty, "not a certificate\n");
    expect(
      failure(() => loadWebEnv({ ...base, SECONDSHIFT_EXTRA_CA_CERTS: empty })).message,
    ).toContain(`${empty} holds no PEM certificate`);
    const broken = join(dir, "broken.pem");
    writeFileSync(broken, pem("AAAA"));
    expect(
      failure(() => loadGatewayEnv({ ...base, SECONDSHIFT_EXTRA_CA_CERTS: broken })).message,
    ).toContain(`certificate 1 in ${broken} is not a valid X.509 certificate`);
  });
});

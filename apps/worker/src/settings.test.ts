// The installation id that labels this installation's sandboxes (settings.ts, installationOf).
import { randomBytes } from "node:crypto";
import { createKeyring } from "@secondshift/crypto";
import { describe, expect, it } from "vitest";
import { loadWorkerEnv } from "@secondshift/config";
import { installationOf, settingsFromEnv } from "./settings.ts";

const key = () => new Uint8Array(randomBytes(32));

describe("installation id", () => {
  it("defaults to one derived from the encryption key: the same for every worker of an installation, another for another key", () => {
    const current = key();
    const a = installationOf(createKeyring(current));
    expect(a.id).toMatch(/^key-[0-9a-f]{16}$/);
    expect(installationOf(createKeyring(current))).toEqual(a);
    expect(installationOf(createKeyring(key())).id).not.toBe(a.id);
    // Nothing of the key or its id appears in the label the sandbox host sees.
    const keyring = createKeyring(current);
    expect(a.id).not.toContain(keyring.currentKeyId);
    expect(a.id).not.toContain(Buffer.from(current).toString("hex").slice(0, 8));
  });

  it("during a key rotation the previous keys' ids stay this installation's", () => {
    const old = key();
    const before = installationOf(createKeyring(old));
    const rotating = installationOf(createKeyring(key(), [old]));
    expect(rotating.id).not.toBe(before.id);
    expect(rotating.previousIds).toEqual([before.id]);
  });

  it("SECONDSHIFT_INSTALLATION_ID replaces the default, alone", () => {
    expect(installationOf(createKeyring(key(), [key()]), "acme-prod")).toEqual({
      id: "acme-prod",
      previousIds: [],
    });
  });
});

describe("outputs settings", () => {
  const env = (extra: Record<string, string>) =>
    loadWorkerEnv({
      DATABASE_URL: "postgresql://u@127.0.0.1:5432/db",
      REDIS_URL: "redis://127.0.0.1:6379",
      SECONDSHIFT_ENCRYPTION_KEY: Buffer.from(key()).toString("base64"),
      SECONDSHIFT_ENV: "development",
      SECONDSHIFT_PUBLIC_URL: "https://secondshift.example.com",
      SECONDSHIFT_GATEWAY_URL: "http://gateway:4000",
      ...extra,
    });

  it("[O04] OUTPUTS_ALLOW_WORKFLOW_CHANGES is parsed once at the entry, default off", () => {
    const keyring = createKeyring(key());
    expect(settingsFromEnv(env({}), keyring).outputs.allowWorkflowChanges).toBe(false);
    const on = settingsFromEnv(env({ OUTPUTS_ALLOW_WORKFLOW_CHANGES: "true" }), keyring);
    expect(on.outputs.allowWorkflowChanges).toBe(true);
    expect(() => env({ OUTPUTS_ALLOW_WORKFLOW_CHANGES: "maybe" })).toThrow(
      /OUTPUTS_ALLOW_WORKFLOW_CHANGES/,
    );
  });
});

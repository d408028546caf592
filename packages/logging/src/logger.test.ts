import { describe, expect, it } from "vitest";
import { createLogger, createMemorySink } from "./logger.ts";
import { MASK, SecretMasker } from "./secret-masker.ts";

const flush = () => new Promise((r) => setImmediate(r));

describe("logger", () => {
  it("[P04] redacts credential-named fields at any depth we log", async () => {
    const sink = createMemorySink();
    const log = createLogger({ name: "t", destination: sink.stream });
    log.info(
      {
        headers: { authorization: "Bearer planted-bearer-1" },
        apiKey: "planted-key-2",
        nested: { token: "planted-token-3" },
      },
      "request",
    );
    await flush();
    const text = sink.text();
    expect(text).not.toContain("planted-bearer-1");
    expect(text).not.toContain("planted-key-2");
    expect(text).not.toContain("planted-token-3");
    expect(text).toContain("[REDACTED]");
  });

  it("[P02] masks registered secret values under any field name, in messages and errors", async () => {
    const sink = createMemorySink();
    const masker = new SecretMasker();
    masker.add('sk-planted"quote\\secret');
    const log = createLogger({ name: "t", destination: sink.stream, masker });
    log.info(
      { innocent: 'value sk-planted"quote\\secret here' },
      'message sk-planted"quote\\secret',
    );
    log.error({ err: new Error('boom sk-planted"quote\\secret') }, "failed");
    await flush();
    const text = sink.text();
    expect(text).not.toContain("sk-planted");
    expect(text.split(MASK).length - 1).toBeGreaterThanOrEqual(3);
  });
});

describe("SecretMasker", () => {
  it("[P02] masks inside structured values and ignores too-short values", () => {
    const masker = new SecretMasker();
    masker.add("abc", "token-value-123456");
    expect(masker.maskValue({ a: ["x token-value-123456 y"], b: "abc" })).toEqual({
      a: [`x ${MASK} y`],
      b: "abc",
    });
    expect(masker.mask(encodeURIComponent("q=token-value-123456"))).not.toContain(
      "token-value-123456",
    );
  });
});

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLogger, createMemorySink } from "./logger.ts";
import { MASK, SecretMasker } from "./secret-masker.ts";

const flush = () => new Promise((r) => setImmediate(r));
const runToken = () => `ss_run_${randomBytes(32).toString("base64url")}`;
const fakeClock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

describe("SecretMasker scopes", () => {
  it("[P02] a per-run secret is masked on every line while its scope is open, and gone after", async () => {
    const masker = new SecretMasker();
    const sink = createMemorySink();
    const log = createLogger({ name: "worker", destination: sink.stream, masker });
    const before = masker.size;
    const token = runToken();

    const run = masker.scope("run-1");
    run.add(token);
    // The worker's logger (the masker, not the scope) masks it, and so does the scope itself.
    log.info({ innocent: `Bearer ${token}` }, `calling with ${token}`);
    // Closed right after the call that wrote the line: the line was already masked.
    run.close();
    await flush();
    expect(sink.text()).not.toContain(token);
    expect(sink.text().split(MASK).length - 1).toBe(2);

    // The matcher no longer holds the token: it passes through, and the size is back.
    expect(masker.size).toBe(before);
    expect(masker.mask(`x ${token} y`)).toBe(`x ${token} y`);
    expect(run.mask(token)).toBe(token);
  });

  it("[P02] long-lived secrets stay while scopes come and go", () => {
    const masker = new SecretMasker();
    masker.add("long-lived-webhook-secret");
    const scope = masker.scope();
    scope.add("per-run-token-abcdef");
    expect(masker.mask("long-lived-webhook-secret per-run-token-abcdef")).toBe(`${MASK} ${MASK}`);
    scope.close();
    expect(masker.mask("long-lived-webhook-secret per-run-token-abcdef")).toBe(
      `${MASK} per-run-token-abcdef`,
    );
    // Adding a long-lived secret again inside a scope does not make it leave with the scope.
    const other = masker.scope();
    other.add("long-lived-webhook-secret");
    other.close();
    expect(masker.mask("long-lived-webhook-secret")).toBe(MASK);
  });

  it("[P02] a value held by two open scopes stays until both have closed", () => {
    const masker = new SecretMasker();
    const first = masker.scope();
    const second = masker.scope();
    first.add("sk-provider-key-123");
    second.add("sk-provider-key-123");
    first.close();
    first.close(); // closing twice releases nothing more
    expect(masker.mask("sk-provider-key-123")).toBe(MASK);
    second.close();
    expect(masker.mask("sk-provider-key-123")).toBe("sk-provider-key-123");
    expect(masker.size).toBe(0);
  });

  it("[P02] scopeFor finds a run's open scope by id; after the run, its additions are late secrets", () => {
    const clock = fakeClock();
    const masker = new SecretMasker({ lateSecretMs: 60_000, now: clock.now });
    const run = masker.scope("run-42");
    masker.scopeFor("run-42").add("oauth-access-token-1");
    expect(masker.mask("oauth-access-token-1")).toBe(MASK);
    run.close();
    expect(masker.mask("oauth-access-token-1")).toBe("oauth-access-token-1");
    // No open scope: a token refreshed after the run is masked, for the late-secret time only.
    expect(masker.scopeFor("run-42")).not.toBe(masker);
    masker.scopeFor("run-42").add("oauth-access-token-2");
    clock.advance(59_999);
    expect(masker.mask("oauth-access-token-2")).toBe(MASK);
    clock.advance(1);
    expect(masker.mask("oauth-access-token-2")).toBe("oauth-access-token-2");
    expect(masker.size).toBe(0);
  });

  it("[P02] a secret added to a scope after it closed is masked for the late-secret time, again from each addition", () => {
    const clock = fakeClock();
    const masker = new SecretMasker({ lateSecretMs: 60_000, now: clock.now });
    const run = masker.scope("late");
    run.close();
    run.add("refreshed-token-after-run");
    expect(masker.mask("x refreshed-token-after-run")).toBe(`x ${MASK}`);
    clock.advance(50_000);
    run.add("refreshed-token-after-run");
    clock.advance(50_000);
    expect(masker.mask("x refreshed-token-after-run")).toBe(`x ${MASK}`);
    clock.advance(10_000);
    expect(masker.mask("x refreshed-token-after-run")).toBe("x refreshed-token-after-run");
  });

  it("[P02] late secrets are a bounded set: past the limit the oldest leave first; long-lived and open ones stay", () => {
    const masker = new SecretMasker({ maxLateSecrets: 3 });
    masker.add("long-lived-provider-key");
    const open = masker.scope("open");
    open.add("open-run-token-0");
    for (let i = 0; i < 5; i++) masker.scopeFor(`ended-${i}`).add(`late-token-${i}-abcdef`);
    for (let i = 0; i < 2; i++) expect(masker.mask(`late-token-${i}-abcdef`)).not.toBe(MASK);
    for (let i = 2; i < 5; i++) expect(masker.mask(`late-token-${i}-abcdef`)).toBe(MASK);
    expect(masker.mask("long-lived-provider-key open-run-token-0")).toBe(`${MASK} ${MASK}`);
    // A late value that an open scope also holds stays while that scope is open.
    masker.scopeFor("ended-x").add("open-run-token-0");
    for (let i = 5; i < 8; i++) masker.scopeFor(`ended-${i}`).add(`late-token-${i}-abcdef`);
    expect(masker.mask("open-run-token-0")).toBe(MASK);
  });

  it("[P02] 20,000 runs with late registrations: the masker's size stays bounded", () => {
    const clock = fakeClock();
    const masker = new SecretMasker({ lateSecretMs: 5 * 60_000, now: clock.now });
    masker.add("long-lived-provider-key");
    const start = masker.size;
    let largest = 0;
    for (let i = 0; i < 20_000; i++) {
      const run = masker.scope(`run-${i}`);
      run.add(runToken());
      run.close();
      // A token refreshed by a tool call that outlived the run, a second after it ended.
      clock.advance(1_000);
      masker.scopeFor(`run-${i}`).add(`refreshed-${i}-${runToken()}`);
      // A line now and then: each one after a change rebuilds the matcher.
      if (i % 500 === 0) expect(masker.mask("x")).toBe("x");
      largest = Math.max(largest, masker.size);
    }
    // Five minutes of runs a second apart: about 300 late secrets live at a time, never more.
    expect(largest - start).toBeLessThanOrEqual(301 * 8);
    clock.advance(5 * 60_000);
    masker.mask("x");
    expect(masker.size).toBe(start);
  });

  it("[P02] 20,000 scopes opened and closed leave the masker's size where it started", () => {
    const masker = new SecretMasker();
    masker.add("long-lived-provider-key");
    const start = masker.size;
    let last = "";
    for (let i = 0; i < 20_000; i++) {
      const run = masker.scope(`run-${i}`);
      last = runToken();
      run.add(last, `git-credential-${i}`, `connection-secret-${i}`);
      expect(masker.mask(`Authorization: Bearer ${last}`)).toBe(`Authorization: Bearer ${MASK}`);
      run.close();
    }
    expect(masker.size).toBe(start);
    expect(masker.mask(last)).toBe(last);
    expect(masker.mask("long-lived-provider-key")).toBe(MASK);
  });
});

describe("SecretMasker forms and matching", () => {
  const secret = "p@ss/w0rd+&=?~ é";

  it("[P02] masks the JSON-escaped and URL-encoded forms", () => {
    const masker = new SecretMasker();
    masker.add(secret, 'quote"and\\backslash');
    const lines = [
      `https://example.test/hook?token=${encodeURIComponent(secret)}&x=1`,
      `grant_type=refresh_token&refresh_token=${new URLSearchParams({ a: secret }).toString().slice(2)}`,
      JSON.stringify({ field: secret, other: 'quote"and\\backslash' }),
    ];
    for (const line of lines) {
      const masked = masker.mask(line);
      expect(masked).toContain(MASK);
      expect(masked).not.toContain("w0rd");
      expect(masked).not.toContain("backslash");
    }
  });

  it("[P02] masks base64 of a secret at any offset, standard and url-safe", () => {
    const masker = new SecretMasker();
    const token = `${runToken()}?>?>`; // "?>" gives "/" and "+" in standard base64
    masker.add(token);
    for (let offset = 0; offset < 6; offset++) {
      for (const encoding of ["base64", "base64url"] as const) {
        const prefix = "x".repeat(offset);
        const encoded = Buffer.from(`${prefix}${token}tail`).toString(encoding);
        const masked = masker.mask(`data: ${encoded}`);
        expect(masked, `${encoding} at offset ${offset}`).toContain(MASK);
        // What is left around the mask decodes to no part of the token longer than 2 bytes.
        const rest = Buffer.from(masked.slice(6).split(MASK).join(""), encoding).toString("latin1");
        expect(rest).not.toContain(token.slice(0, 3));
        expect(rest).not.toContain(token.slice(20, 23));
      }
    }
    // A Basic authorization header carries the password at an arbitrary offset.
    const header = `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
    expect(masker.mask(header)).toMatch(new RegExp(`^Basic [A-Za-z0-9+/]{0,20}\\[MASKED\\]`));
  });

  it("[P02] overlapping secrets: the longest wins and no part of either survives", () => {
    const masker = new SecretMasker();
    masker.add("alpha-secret-1", "alpha-secret-123456");
    expect(masker.mask("[alpha-secret-123456]")).toBe(`[${MASK}]`);
    expect(masker.mask("[alpha-secret-1]")).toBe(`[${MASK}]`);
    masker.add("AAAA-BBBB-CCCC", "BBBB-CCCC-DDDD");
    expect(masker.mask("<AAAA-BBBB-CCCC-DDDD>")).toBe(`<${MASK}>`);
  });

  it("leaves a line with no secret unchanged", () => {
    const masker = new SecretMasker();
    for (let i = 0; i < 50; i++) masker.add(runToken());
    const line = '{"level":"info","msg":"run started","commit":"0123456789abcdef"}';
    expect(masker.mask(line)).toBe(line);
    expect(masker.maskValue({ a: [line] })).toEqual({ a: [line] });
  });
});

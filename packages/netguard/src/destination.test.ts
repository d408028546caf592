// The save-time check decides as the send-time guard does: what one refuses the other refuses,
// with words that name the rule and the remedy. Resolvers are fakes: no DNS, no socket.
import { describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { createDestinationChecker, type DestinationKind } from "./destination.ts";
import { createOutboundClient } from "./client.ts";
import type { OutboundPolicy } from "./policy.ts";
import { FAKE_PUBLIC_V4, forbiddenConnector, tableResolver, testPolicy } from "./test-support.ts";

const production = (extra: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  production: true,
  allowedPrivateHosts: [],
  allowedPrivateCidrs: [],
  resolver: tableResolver({
    "api.example.com": [FAKE_PUBLIC_V4],
    "internal.example.com": ["10.0.0.5"],
    "mixed.example.com": [FAKE_PUBLIC_V4, "192.168.1.2"],
    "ollama.internal": ["10.20.0.7"],
  }),
  ...extra,
});

async function refusal(policy: OutboundPolicy, url: string, kind?: DestinationKind) {
  try {
    await createDestinationChecker(policy).check(url, "The webhook URL", kind);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe("[C21] owner URLs are checked at save as at send", () => {
  it("[C21] refuses private, loopback, link-local and metadata literals, naming the rule and the settings", async () => {
    const cases: [string, RegExp][] = [
      ["https://10.0.0.5/hook", /a private address \(10\.0\.0\.5\)/],
      ["https://127.0.0.1:8080/", /a loopback address \(127\.0\.0\.1\)/],
      ["https://[::1]/", /a loopback address \(::1\)/],
      ["https://169.254.169.254/latest/", /cloud metadata \(link-local\) address/],
      ["https://[fe80::1]/", /a link-local address/],
      ["https://2130706433/", /a loopback address \(127\.0\.0\.1\)/],
    ];
    for (const [url, words] of cases) {
      const error = await refusal(production(), url);
      expect(error.reason, url).toBe("URL_ADDRESS_NOT_ALLOWED");
      expect(error.message, url).toMatch(words);
      expect(error.message).toContain("SECONDSHIFT_ALLOWED_PRIVATE_CIDRS");
      expect(error.message).toContain("docs/DEPLOY.md");
      expect(error.message).not.toMatch(/reach/i);
    }
  });

  it("[C21] refuses a name when any resolved address is not public", async () => {
    for (const host of ["internal.example.com", "mixed.example.com"]) {
      const error = await refusal(production(), `https://${host}/x`);
      expect(error.reason).toBe("URL_ADDRESS_NOT_ALLOWED");
      expect(error.message).toMatch(/a private address/);
    }
  });

  it("[C21] refuses metadata and localhost names by name, like the send-time guard", async () => {
    for (const url of ["https://metadata.google.internal/", "https://localhost:3000/"]) {
      const error = await refusal(production(), url);
      expect(error.reason, url).toBe("URL_HOST_NOT_ALLOWED");
    }
  });

  it("[C21] refuses http:// in production, whatever the allowances", async () => {
    const policy = production({ allowedPrivateCidrs: ["10.0.0.0/8"] });
    const error = await refusal(policy, "http://10.0.0.5/");
    expect(error.reason).toBe("URL_HTTPS_REQUIRED");
    expect(error.message).toMatch(/use an https:\/\/ URL/);
  });

  it("a name that does not resolve is refused with its own message", async () => {
    const error = await refusal(production(), "https://nowhere.example.com/");
    expect(error.reason).toBe("URL_HOST_UNRESOLVED");
    expect(error.message).toMatch(/could not be resolved; check the name/);
    expect(error.message).not.toMatch(/private|SECONDSHIFT_/);
  });

  it("accepts public names and what the operator allows", async () => {
    const checker = createDestinationChecker(
      production({ allowedPrivateHosts: ["ollama.internal"], allowedPrivateCidrs: ["10.0.0.0/8"] }),
    );
    await checker.check("https://api.example.com/v1", "The base URL");
    await checker.check("https://internal.example.com/", "The base URL");
    await checker.check("https://ollama.internal/", "The base URL");
    await checker.check("https://10.0.0.5/", "The base URL");
  });

  it("development keeps plain http and loopback when the operator allows loopback", async () => {
    const checker = createDestinationChecker({
      production: false,
      allowHttp: true,
      allowedPrivateHosts: ["localhost"],
      allowedPrivateCidrs: ["127.0.0.0/8", "::1/128"],
    });
    await checker.check("http://127.0.0.1:4000/hook", "The webhook URL");
    await checker.check("http://localhost:4000/hook", "The webhook URL");
  });

  it("git URLs are decided by address only, as the clone check does", async () => {
    const policy = production({
      resolver: tableResolver({ localhost: ["127.0.0.1"] }),
      allowedPrivateCidrs: ["127.0.0.0/8"],
    });
    await createDestinationChecker(policy).check("https://localhost/acme/app.git", "x", "git");
    expect((await refusal(policy, "https://localhost/acme/app.git")).reason).toBe(
      "URL_HOST_NOT_ALLOWED",
    );
  });

  it("problem() needs no DNS: literals and scheme only", () => {
    const policy = production();
    const checker = createDestinationChecker(policy);
    expect(checker.problem("https://10.0.0.5/", "The base URL")).toMatch(/private address/);
    expect(checker.problem("http://api.example.com/", "The base URL")).toMatch(/https/);
    expect(checker.problem("https://internal.example.com/", "The base URL")).toBeNull();
    expect(policy.resolver).not.toHaveBeenCalled();
  });

  it("[C21] whatever save refuses, send refuses too", async () => {
    const policy = testPolicy({
      production: true,
      resolver: tableResolver({
        "api.example.com": [FAKE_PUBLIC_V4],
        "in.example.com": ["10.1.1.1"],
      }),
      connector: forbiddenConnector(),
    });
    const checker = createDestinationChecker(policy);
    const client = createOutboundClient(policy);
    try {
      for (const url of [
        "http://api.example.com/",
        "https://in.example.com/",
        "https://10.0.0.1/",
        "https://metadata.google.internal/",
        "https://nowhere.example.com/",
      ]) {
        await expect(checker.check(url, "x"), url).rejects.toThrow();
        await expect(client.fetch(url), url).rejects.toThrow();
      }
    } finally {
      await client.close();
    }
  });
});

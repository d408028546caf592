// Refusals through the real client: every one happens before any socket exists, which each
// test proves by injecting a connector that fails the test if it is ever called.
import { describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { createOutboundClient } from "./client.ts";
import type { OutboundPolicy } from "./policy.ts";
import { FAKE_PUBLIC_V4, forbiddenConnector, tableResolver, testPolicy } from "./test-support.ts";

async function refusal(url: string, policy: Partial<OutboundPolicy>, init?: RequestInit) {
  const connector = forbiddenConnector();
  const resolver = policy.resolver ?? tableResolver({});
  const client = createOutboundClient(testPolicy({ ...policy, connector, resolver }));
  try {
    await client.fetch(url, init as never);
    throw new Error(`expected ${url} to be refused`);
  } catch (error) {
    expect(connector).not.toHaveBeenCalled();
    if (!isAppError(error)) throw error;
    return { error, resolver };
  } finally {
    await client.close();
  }
}

describe("[C21] URL literals are normalised, then checked, with no socket", () => {
  const literals: [string, string][] = [
    ["http://2130706433/", "127.0.0.1 as one decimal number"],
    ["http://0x7f000001/", "hex"],
    ["http://0177.0.0.1/", "octal"],
    ["http://0x7f.1/", "mixed short hex"],
    ["http://127.1/", "short form"],
    ["http://127.0.0.1./", "trailing dot"],
    ["http://0/", "0.0.0.0 as 0"],
    ["http://10.0.0.1/", "private"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://0xa9fea9fe/", "metadata in hex"],
    ["http://100.100.100.200/", "CGNAT metadata (Alibaba)"],
    ["http://[::1]/", "IPv6 loopback"],
    ["http://[::]/", "IPv6 unspecified"],
    ["http://[::ffff:127.0.0.1]/", "mapped loopback"],
    ["http://[::ffff:a9fe:a9fe]/", "mapped metadata in hex"],
    ["http://[64:ff9b::7f00:1]/", "NAT64 loopback"],
    ["http://[2002:a9fe:a9fe::]/", "6to4 metadata"],
    ["http://[fd00:ec2::254]/", "AWS IPv6 metadata"],
    ["http://[fe80::1]/", "link-local"],
    ["https://[ff02::1]/", "multicast over https"],
  ];
  for (const [url, label] of literals) {
    it(`[C21] refuses ${url} (${label})`, async () => {
      const { error, resolver } = await refusal(url, {});
      expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
      expect(error.message).toContain("SECONDSHIFT_ALLOWED_PRIVATE_HOSTS");
      expect(resolver).not.toHaveBeenCalled();
    });
  }

  it("[C21] refuses bracketed IPv6 with a zone id as an invalid URL", async () => {
    const { error } = await refusal("http://[fe80::1%25eth0]/", {});
    expect(error.reason).toBe("INVALID_URL");
  });

  it("[C21] refuses metadata and localhost names without resolving them", async () => {
    for (const url of [
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://METADATA.google.internal./",
      "http://metadata/",
      "http://localhost:8080/",
      "http://api.localhost/",
    ]) {
      const { error, resolver } = await refusal(url, {});
      expect(error.reason, url).toBe("HOST_NOT_ALLOWED");
      expect(resolver).not.toHaveBeenCalled();
    }
  });
});

describe("[C21] resolved addresses are checked before connecting", () => {
  const privateAnswers = [
    "10.0.0.5",
    "127.0.0.1",
    "169.254.169.254",
    "::1",
    "fd00::1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
  ];
  for (const answer of privateAnswers) {
    it(`[C21] refuses a name resolving to ${answer}`, async () => {
      const resolver = tableResolver({ "internal.example.test": [answer] });
      const { error } = await refusal("https://internal.example.test/", { resolver });
      expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
      expect(resolver).toHaveBeenCalledTimes(1);
    });
  }

  it("[C21] refuses the whole host when any answer is private (mixed answers are not filtered)", async () => {
    const resolver = tableResolver({ "mixed.example.test": [FAKE_PUBLIC_V4, "10.0.0.1"] });
    const { error } = await refusal("https://mixed.example.test/", { resolver });
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(error.message).toContain("mixed.example.test (10.0.0.1)");
  });

  it("reports a DNS failure with a clear reason", async () => {
    const { error } = await refusal("https://nowhere.example.test/", {});
    expect(error.reason).toBe("DNS_FAILED");
    expect(error.message).toContain("nowhere.example.test");
  });
});

describe("[C21] https is required in production", () => {
  it("[C21] refuses http in production, even with allowHttp", async () => {
    const resolver = tableResolver({ "api.example.test": [FAKE_PUBLIC_V4] });
    const { error } = await refusal("http://api.example.test/", {
      production: true,
      allowHttp: true,
      resolver,
    });
    expect(error.reason).toBe("HTTPS_REQUIRED");
    expect(error.message).toMatch(/production requires https/);
    expect(resolver).not.toHaveBeenCalled();
  });

  it("[C21] refuses http outside production unless allowHttp is set", async () => {
    const { error } = await refusal("http://api.example.test/", { allowHttp: false });
    expect(error.reason).toBe("HTTPS_REQUIRED");
  });

  it("[C21] refuses other schemes and credentials in the URL", async () => {
    for (const url of [
      "ftp://api.example.test/",
      "file:///etc/passwd",
      "gopher://api.example.test/",
    ]) {
      expect((await refusal(url, {})).error.reason, url).toBe("UNSUPPORTED_SCHEME");
    }
    expect((await refusal("https://user:pw@api.example.test/", {})).error.reason).toBe(
      "INVALID_URL",
    );
  });
});

describe("[C21] error messages never carry request secrets", () => {
  it("[C21] names only the host, not the path, query, headers or body", async () => {
    const resolver = tableResolver({ "hooks.example.test": ["10.9.9.9"] });
    const { error } = await refusal(
      "https://hooks.example.test/T000/planted-path-secret?token=planted-query-secret",
      {
        resolver,
      },
      {
        method: "POST",
        headers: { authorization: "Bearer planted-header-secret" },
        body: "planted-body-secret",
      },
    );
    const text = `${error.message} ${JSON.stringify(error)}`;
    expect(text).not.toMatch(/planted/);
    expect(text).toContain("hooks.example.test");
  });
});

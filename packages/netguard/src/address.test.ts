import { describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { checkAddress, classifyAddress, isPublicAddress } from "./address.ts";

const none = { allowedPrivateHosts: [], allowedPrivateCidrs: [] };

// One or more samples (first, last, the famous one) per IPv4 special-purpose range.
const specialV4: [string, string[]][] = [
  ["0.0.0.0/8 this network", ["0.0.0.0", "0.1.2.3", "0.255.255.255"]],
  ["10.0.0.0/8 private", ["10.0.0.0", "10.1.2.3", "10.255.255.255"]],
  ["100.64.0.0/10 CGNAT", ["100.64.0.0", "100.100.100.200", "100.127.255.255"]],
  ["127.0.0.0/8 loopback", ["127.0.0.1", "127.1.2.3", "127.255.255.255"]],
  ["169.254.0.0/16 link-local and metadata", ["169.254.0.1", "169.254.169.254", "169.254.255.255"]],
  ["172.16.0.0/12 private", ["172.16.0.0", "172.20.1.1", "172.31.255.255"]],
  ["192.0.0.0/24 IETF protocol", ["192.0.0.0", "192.0.0.170", "192.0.0.255"]],
  ["192.0.2.0/24 TEST-NET-1", ["192.0.2.1", "192.0.2.255"]],
  ["192.88.99.0/24 6to4 relay", ["192.88.99.1"]],
  ["192.168.0.0/16 private", ["192.168.0.1", "192.168.255.255"]],
  ["198.18.0.0/15 benchmark", ["198.18.0.0", "198.19.255.255"]],
  ["198.51.100.0/24 TEST-NET-2", ["198.51.100.7"]],
  ["203.0.113.0/24 TEST-NET-3", ["203.0.113.9"]],
  ["224.0.0.0/4 multicast", ["224.0.0.1", "239.255.255.255"]],
  ["240.0.0.0/4 reserved", ["240.0.0.1", "255.255.255.254"]],
  ["255.255.255.255 broadcast", ["255.255.255.255"]],
];

const specialV6: [string, string[]][] = [
  [":: unspecified", ["::"]],
  ["::1 loopback", ["::1"]],
  ["::/96 IPv4-compatible (deprecated)", ["::7f00:1", "::808:808"]],
  ["::ffff:0:0:0/96 IPv4-translated", ["::ffff:0:808:808"]],
  ["64:ff9b:1::/48 local-use NAT64", ["64:ff9b:1::808:808"]],
  ["100::/64 discard", ["100::1"]],
  [
    "2001::/23 IETF special (Teredo, benchmark, ORCHID)",
    ["2001::1", "2001:2::1", "2001:10::1", "2001:1ff::1"],
  ],
  ["2001:db8::/32 documentation", ["2001:db8::1", "2001:db8:ffff::1"]],
  ["3fff::/20 documentation", ["3fff::1"]],
  [
    "fc00::/7 unique local (incl. AWS metadata fd00:ec2::254)",
    ["fc00::1", "fd00:ec2::254", "fdff::1"],
  ],
  ["fe80::/10 link-local", ["fe80::1", "febf:ffff::1"]],
  ["fec0::/10 site-local", ["fec0::1", "feff::1"]],
  ["ff00::/8 multicast", ["ff02::1", "ff0e::1"]],
  ["outside 2000::/3", ["4000::1", "5f00::1", "e000::1"]],
];

// IPv6 forms that embed an IPv4 address and must be judged by it.
function embeddedForms(v4: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split(".").map(Number);
  const hi = ((a << 8) | b).toString(16);
  const lo = ((c << 8) | d).toString(16);
  return [
    `::ffff:${v4}`,
    `::ffff:${hi}:${lo}`,
    `64:ff9b::${v4}`,
    `64:ff9b::${hi}:${lo}`,
    `2002:${hi}:${lo}::1`,
  ];
}

describe("[C21] address classification", () => {
  for (const [name, samples] of specialV4) {
    it(`[C21] refuses IPv4 ${name}, also mapped, NAT64 and 6to4`, () => {
      for (const ip of samples) {
        for (const form of [ip, ...embeddedForms(ip)]) {
          expect(isPublicAddress(form), form).toBe(false);
          expect(checkAddress(form, none).allowed, form).toBe(false);
        }
      }
    });
  }

  for (const [name, samples] of specialV6) {
    it(`[C21] refuses IPv6 ${name}`, () => {
      for (const ip of samples) {
        expect(isPublicAddress(ip), ip).toBe(false);
        expect(checkAddress(ip, none).allowed, ip).toBe(false);
      }
    });
  }

  it("[C21] accepts public addresses, including just outside the special ranges", () => {
    const v4 = [
      "8.8.8.8",
      "1.1.1.1",
      "100.63.255.255",
      "100.128.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "223.255.255.255",
      "9.255.255.255",
      "11.0.0.0",
    ];
    for (const ip of v4) {
      for (const form of [ip, ...embeddedForms(ip)]) expect(isPublicAddress(form), form).toBe(true);
    }
    for (const ip of [
      "2606:4700:4700::1111",
      "2a00:1450:4001:80b::200e",
      "2001:200::1",
      "2c0f:fb50::1",
    ]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });

  it("[C21] treats non-canonical or non-IP strings as not public (URLs are normalised first)", () => {
    for (const text of [
      "127.1",
      "0x7f000001",
      "2130706433",
      "017700000001",
      "localhost",
      "",
      "1.2.3.4.5",
      "[::1",
    ]) {
      expect(isPublicAddress(text), text).toBe(false);
      expect(classifyAddress(text), text).toBeUndefined();
    }
  });

  it("reports the range and connects mapped addresses as IPv4", () => {
    expect(classifyAddress("::ffff:169.254.169.254")).toEqual({
      address: "169.254.169.254",
      family: 4,
      range: "ipv4Mapped:linkLocal",
      public: false,
    });
    expect(classifyAddress("64:ff9b::a00:1")?.range).toBe("nat64:private");
    expect(classifyAddress("[::1]")?.range).toBe("loopback");
  });
});

describe("[C21] operator allowances", () => {
  it("[C21] allows exactly the configured CIDR ranges", () => {
    const policy = {
      allowedPrivateHosts: [],
      allowedPrivateCidrs: ["10.20.0.0/16", "fd12:3456::/48"],
    };
    expect(checkAddress("10.20.1.1", policy)).toMatchObject({ allowed: true, via: "allowed-cidr" });
    expect(checkAddress("::ffff:10.20.1.1", policy)).toMatchObject({
      allowed: true,
      address: "10.20.1.1",
    });
    expect(checkAddress("10.21.0.1", policy).allowed).toBe(false);
    expect(checkAddress("fd12:3456:0:1::5", policy).allowed).toBe(true);
    expect(checkAddress("fd12:3457::5", policy).allowed).toBe(false);
  });

  it("[C21] allows private addresses only for the named host, never metadata, multicast or unspecified", () => {
    const policy = { allowedPrivateHosts: ["Ollama.Internal."], allowedPrivateCidrs: [] };
    expect(checkAddress("10.1.2.3", policy, "ollama.internal")).toMatchObject({
      allowed: true,
      via: "allowed-host",
    });
    expect(checkAddress("10.1.2.3", policy, "other.internal").allowed).toBe(false);
    expect(checkAddress("10.1.2.3", policy).allowed).toBe(false);
    for (const ip of [
      "169.254.169.254",
      "fe80::1",
      "0.0.0.0",
      "::",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(checkAddress(ip, policy, "ollama.internal").allowed, ip).toBe(false);
    }
  });

  it("[C21] never allows the unspecified address, even inside an allowed CIDR", () => {
    const policy = { allowedPrivateHosts: [], allowedPrivateCidrs: ["0.0.0.0/0", "::/0"] };
    expect(checkAddress("0.0.0.0", policy).allowed).toBe(false);
    expect(checkAddress("::", policy).allowed).toBe(false);
    expect(checkAddress("127.0.0.1", policy).allowed).toBe(true);
  });

  it("rejects a malformed CIDR with a message naming the setting", () => {
    let caught: unknown;
    try {
      checkAddress("10.0.0.1", { allowedPrivateHosts: [], allowedPrivateCidrs: ["10.0.0.0/33"] });
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught) && caught.reason).toBe("INVALID_POLICY");
    expect((caught as Error).message).toContain("SECONDSHIFT_ALLOWED_PRIVATE_CIDRS");
  });
});

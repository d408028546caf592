// TLS through the default connector: the socket goes to the checked IP (loopback, allowed by
// CIDR for the test), while SNI and certificate verification use the URL's host name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { rootCertificates, type TLSSocket } from "node:tls";
import { generate } from "selfsigned";
import { createOutboundClient } from "./client.ts";
import { trustedTlsOptions } from "./dispatcher.ts";
import { tableResolver, testPolicy } from "./test-support.ts";

let server: Server;
let port: number;
let ca: string;
const seen: { servername: string | false | null; host: string | undefined }[] = [];

beforeAll(async () => {
  const pems = await generate([{ name: "commonName", value: "api.example.test" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "api.example.test" }] }],
  });
  ca = pems.cert;
  server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    seen.push({ servername: (req.socket as TLSSocket).servername, host: req.headers.host });
    res.end("secure");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Production policy; the only non-public address allowed is loopback, so the real connector
// can reach nothing but 127.0.0.1.
function productionPolicy() {
  return testPolicy({
    production: true,
    allowedPrivateCidrs: ["127.0.0.1/32"],
    resolver: tableResolver({
      "api.example.test": ["127.0.0.1"],
      "wrong.example.test": ["127.0.0.1"],
    }),
  });
}

describe("[C21] TLS keeps the host name", () => {
  it("[C21] connects over https in production with SNI and Host set to the URL's host", async () => {
    const client = createOutboundClient(productionPolicy(), { tls: { ca } });
    try {
      const response = await client.fetch(`https://api.example.test:${port}/v1/models`);
      expect(await response.text()).toBe("secure");
      expect(seen.at(-1)).toEqual({
        servername: "api.example.test",
        host: `api.example.test:${port}`,
      });
    } finally {
      await client.close();
    }
  });

  it("[C21] rejects a certificate that does not match the URL's host, although the IP was allowed", async () => {
    const client = createOutboundClient(productionPolicy(), { tls: { ca } });
    try {
      const error = await client
        .fetch(`https://wrong.example.test:${port}/`)
        .catch((e: unknown) => e);
      expect(isAppError(error) && error.reason).toBe("TLS_FAILED");
    } finally {
      await client.close();
    }
  });

  it("[C21] rejects a certificate from an unknown CA", async () => {
    const client = createOutboundClient(productionPolicy());
    try {
      const error = await client
        .fetch(`https://api.example.test:${port}/`)
        .catch((e: unknown) => e);
      expect(isAppError(error) && error.reason).toBe("TLS_FAILED");
    } finally {
      await client.close();
    }
  });
});

describe("the operator's certificate authority (SECONDSHIFT_EXTRA_CA_CERTS)", () => {
  it("[C21] a policy's trusted CA certificates let an internal service's certificate verify, with the host name still checked", async () => {
    const client = createOutboundClient({ ...productionPolicy(), trustedCaCerts: [ca] });
    try {
      const response = await client.fetch(`https://api.example.test:${port}/v1/models`);
      expect(await response.text()).toBe("secure");
      const wrongName = await client
        .fetch(`https://wrong.example.test:${port}/`)
        .catch((e: unknown) => e);
      expect(isAppError(wrongName) && wrongName.reason).toBe("TLS_FAILED");
    } finally {
      await client.close();
    }
  });

  it("keeps trusting the public roots beside the operator's CA", () => {
    // A connector's `ca` replaces Node's list: both must be in it.
    const options = trustedTlsOptions({ ...productionPolicy(), trustedCaCerts: [ca] });
    expect(options?.ca).toEqual([...rootCertificates, ca]);
    expect(trustedTlsOptions(productionPolicy())).toBeUndefined();
  });
});

// A git server inside the operator's network, with a certificate from the operator's own CA
// (SECONDSHIFT_EXTRA_CA_CERTS, the outbound policy's trustedCaCerts): git trusts it exactly
// when every other outbound client does, and still checks the certificate's name.
import { mkdtemp } from "node:fs/promises";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:tls";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboundPolicy } from "@secondshift/netguard";
import { fetchRepository } from "./fetch-repository.ts";
import { createTestRepo, startGitHttpServer, type GitHttpServer } from "./testing/git-server.ts";

const TOKEN = "ghs_plantedPrivateCaToken_7a6b5c4d";
const HOST = "git.corp.example.test";
let git: GitHttpServer;
let front: Server;
let port: number;
let ca: string;
let head: string;
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-private-ca-"));
  const repo = await createTestRepo();
  head = await repo.commit({ "README.md": "internal\n" }, "first");
  git = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: TOKEN,
  });
  const pems = await generate([{ name: "commonName", value: HOST }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: HOST }] }],
  });
  ca = pems.cert;
  // TLS in front of the plain git server, on loopback.
  front = createServer({ key: pems.private, cert: pems.cert }, (socket) => {
    const upstream = connect({ host: "127.0.0.1", port: git.port });
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  port = (front.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  await git.close();
});

/** Production: https only; the internal name resolves to loopback, which the operator allows. */
const policy = (overrides: Partial<OutboundPolicy>) => ({
  outbound: {
    production: true,
    allowedPrivateHosts: [HOST],
    allowedPrivateCidrs: [],
    resolver: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
    ...overrides,
  },
});

const fetchFrom = async (cloneUrl: string, outbound: Partial<OutboundPolicy>) =>
  fetchRepository({
    cloneUrl,
    ref: { branch: "main" },
    credential: { username: "x-access-token", password: TOKEN },
    dir: join(await mkdtemp(join(tmpdir(), "secondshift-private-ca-dir-")), "checkout"),
    workDir,
    policy: policy(outbound),
  });

describe("git with the operator's certificate authority", () => {
  it("[C21] fetches from an internal https server whose certificate the operator's CA signed", async () => {
    const { commit } = await fetchFrom(`https://${HOST}:${port}/acme/widgets.git`, {
      trustedCaCerts: [ca],
    });
    expect(commit).toBe(head);
  });

  it("[C21] refuses the same server without the CA, and a name the certificate does not carry with it", async () => {
    await expect(fetchFrom(`https://${HOST}:${port}/acme/widgets.git`, {})).rejects.toThrow(
      /certificate|SSL|TLS/i,
    );
    const other = "other.corp.example.test";
    await expect(
      fetchFrom(`https://${other}:${port}/acme/widgets.git`, {
        trustedCaCerts: [ca],
        allowedPrivateHosts: [other],
      }),
    ).rejects.toThrow(/certificate|SSL|TLS|name/i);
  });
});

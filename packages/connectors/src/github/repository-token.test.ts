// The repository fetch's installation token (P03) against the loopback GitHub App fake: what is
// asked for, how each refusal reads, and that nothing secret is in an error.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGithubApp, type FakeGithubApp } from "../testing/fake-github-app.ts";
import { json } from "../testing/fake-rest.ts";
import { createRepositoryTokenMinter } from "./repository-token.ts";

let app: FakeGithubApp;
const mint = createRepositoryTokenMinter({ outbound: fetch, userAgent: "secondshift-test/1" });
const request = () => ({
  apiBase: app.apiBase,
  appId: String(app.appId),
  installationId: String(app.installationId),
  privateKey: app.privateKeyPem,
  repositoryName: "widgets",
});

beforeAll(async () => {
  app = await startFakeGithubApp({ appId: 77, installationId: 88 });
});
afterAll(() => app.stop());

describe("createRepositoryTokenMinter", () => {
  it("[P03] signs an RS256 JWT the app's public key verifies and asks for reading one repository", async () => {
    const token = await mint(request());
    const seen = app.mints.at(-1)!;
    expect(seen.claims).toMatchObject({ iss: "77" });
    expect(seen.claims!.exp - seen.claims!.iat).toBeLessThanOrEqual(600);
    expect(seen.body).toEqual({ repositories: ["widgets"], permissions: { contents: "read" } });
    expect(seen.headers).toMatchObject({
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "secondshift-test/1",
      "content-type": "application/json",
    });
    expect(token.token).toBe(seen.token);
    expect(token.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(app.isLive(token.token)).toBe(true);
    await token.revoke();
    expect(app.isLive(token.token)).toBe(false);
    await token.revoke(); // a second revoke (GitHub answers 401) is not an error
  });

  it("[O03] a caller asking for output permissions gets exactly those, for the one repository", async () => {
    app.refuseWith = null;
    const token = await mint({ ...request(), permissions: { issues: "write" } });
    expect(app.mints.at(-1)!.body).toEqual({
      repositories: ["widgets"],
      permissions: { issues: "write" },
    });
    expect(app.grantOf(token.token)).toEqual({
      repositories: ["widgets"],
      permissions: { issues: "write" },
    });
    await token.revoke();
    expect(app.grantOf(token.token)).toBeNull();
    app.refuseWith = 422;
    const error = (await mint({ ...request(), permissions: { issues: "write" } }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      /\(HTTP 422\): the installation cannot write the issues of "widgets"/,
    );
    app.refuseWith = null;
  });

  it("[P03] each refusal names the app, the installation and what to check, and nothing secret", async () => {
    const wrongKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const cases: Array<[number | null, Partial<ReturnType<typeof request>>, RegExp]> = [
      [null, { privateKey: wrongKey }, /\(HTTP 401\): the app's private key or app id/],
      [403, {}, /\(HTTP 403\): the app is not installed there/],
      [404, {}, /\(HTTP 404\): the app is not installed there/],
      [422, {}, /\(HTTP 422\): the installation cannot read the contents of "widgets"/],
    ];
    for (const [status, change, hint] of cases) {
      app.refuseWith = status;
      const error = (await mint({ ...request(), ...change }).catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ reason: "INSTALLATION_TOKEN_REFUSED" });
      expect(error.message).toMatch(
        /^GitHub refused an installation token for app 77, installation 88 /,
      );
      expect(error.message).toMatch(hint);
      const jwt = String(app.mints.at(-1)!.headers.authorization).replace("Bearer ", "");
      expect(JSON.stringify(error) + error.message).not.toContain(jwt);
      expect(error.message).not.toContain("PRIVATE KEY");
    }
    app.refuseWith = null;
  });

  it("an unreadable key, a server error and an odd answer each fail with a clear reason", async () => {
    const failure = (change: Partial<ReturnType<typeof request>>) =>
      mint({ ...request(), ...change }).then(
        () => new Error("minted") as Error & { reason?: string },
        (e: unknown) => e as Error & { reason?: string },
      );
    const unreadable = await failure({ privateKey: "not a key" });
    expect(unreadable.reason).toBe("AUTH_FAILED");
    expect(unreadable.message).toContain("private key of this connection could not be read");
    app.rest.route("POST /app/installations/89/access_tokens", (_q, res) => json(res, 500, {}));
    const serverError = await failure({ installationId: "89" });
    expect(serverError.reason).toBe("INSTALLATION_TOKEN_FAILED");
    expect(serverError.message).toMatch(
      /^Requesting an installation token for app 77, installation 89 from GitHub failed\. GitHub answered HTTP 500/,
    );
    app.rest.route("POST /app/installations/90/access_tokens", (_q, res) =>
      json(res, 201, { token: 42 }),
    );
    await expect(mint({ ...request(), installationId: "90" })).rejects.toMatchObject({
      reason: "INSTALLATION_TOKEN_FAILED",
    });
  });
});

// A loopback fake of GitHub's App installation endpoints, speaking the real wire format:
// `POST /app/installations/{id}/access_tokens` checks the app JWT's RS256 signature against
// the app's public key (and its iss / iat / exp), answers 201 `{ token, expires_at, … }` (422,
// as GitHub does, when it asks for more than the installation has), and
// `DELETE /installation/token` revokes. `GET /app/installations/{id}` answers the installation
// with its `permissions` (`installationPermissions`, which tests may change). Tests read what was
// asked (`mints`, `installationReads`) and which tokens are live (`isLive`, e.g. for a git server
// that accepts only minted tokens).
import { createVerify, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { json, startFakeRest, type FakeRest } from "./fake-rest.ts";

export interface SeenMint {
  installationId: string;
  headers: IncomingHttpHeaders;
  body: { repositories?: string[]; permissions?: Record<string, string> };
  /** The JWT's claims, when its signature verified with the app's public key. */
  claims: { iss: string; iat: number; exp: number } | null;
  token: string | null;
}

export interface TokenGrant {
  repositories: string[];
  permissions: Record<string, string>;
}

export interface FakeGithubApp {
  /** The API base URL a connection's endpoint points at. */
  apiBase: string;
  appId: number;
  installationId: number;
  /** The app's private key, as the owner uploads it. */
  privateKeyPem: string;
  publicKey: KeyObject;
  mints: SeenMint[];
  revoked: string[];
  rest: FakeRest;
  /** A status to answer every mint with (e.g. 401), or null to mint. */
  refuseWith: number | null;
  /**
   * What the installation may do, as `GET /app/installations/{id}` answers it; a mint asking for
   * more is refused with 422. Default: everything SecondShift asks for (DEFAULT_APP_PERMISSIONS).
   */
  installationPermissions: Record<string, string>;
  /** A status to answer `GET /app/installations/{id}` with (e.g. 404), or null to answer. */
  installationStatus: number | null;
  /** The JWT claims of each `GET /app/installations/{id}` (null when the signature failed). */
  installationReads: Array<SeenMint["claims"]>;
  isLive(token: string): boolean;
  /** What a live token was minted for (its repositories and permissions), or null. */
  grantOf(token: string): TokenGrant | null;
  stop(): Promise<void>;
}

function verifiedClaims(publicKey: KeyObject, auth: string | undefined): SeenMint["claims"] {
  const [header, payload, signature] = (auth ?? "").replace(/^Bearer /, "").split(".");
  if (!header || !payload || !signature) return null;
  const alg = (JSON.parse(Buffer.from(header, "base64url").toString()) as { alg?: string }).alg;
  const valid = createVerify("RSA-SHA256")
    .update(`${header}.${payload}`)
    .verify(publicKey, Buffer.from(signature, "base64url"));
  if (alg !== "RS256" || !valid) return null;
  return JSON.parse(Buffer.from(payload, "base64url").toString()) as SeenMint["claims"];
}

/** GitHub's rules: issued by this app, not in the future, at most 10 minutes long. */
function acceptable(claims: SeenMint["claims"], appId: number): boolean {
  const now = Math.floor(Date.now() / 1000);
  return (
    claims !== null &&
    claims.iss === String(appId) &&
    claims.iat <= now + 5 &&
    claims.exp > now &&
    claims.exp - claims.iat <= 600
  );
}

/** The fake installation's default permissions: all that SecondShift's minters ask for. */
export const DEFAULT_APP_PERMISSIONS: Readonly<Record<string, string>> = {
  actions: "read",
  contents: "write",
  issues: "write",
  metadata: "read",
  pull_requests: "write",
  workflows: "write",
};

const LEVELS = ["read", "write", "admin"];
const covers = (has: string | undefined, wants: string) =>
  LEVELS.indexOf(has ?? "") >= LEVELS.indexOf(wants);

export async function startFakeGithubApp(
  options: { appId?: number; installationId?: number } = {},
): Promise<FakeGithubApp> {
  const appId = options.appId ?? 123;
  const installationId = options.installationId ?? 456;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const rest = await startFakeRest();
  const live = new Map<string, TokenGrant>();
  const fake: FakeGithubApp = {
    apiBase: rest.base,
    appId,
    installationId,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey,
    mints: [],
    revoked: [],
    rest,
    refuseWith: null,
    installationPermissions: { ...DEFAULT_APP_PERMISSIONS },
    installationStatus: null,
    installationReads: [],
    isLive: (token) => live.has(token),
    grantOf: (token) => live.get(token) ?? null,
    stop: () => rest.stop(),
  };
  rest.route(`POST /app/installations/${installationId}/access_tokens`, (req, res) => {
    const claims = verifiedClaims(publicKey, req.headers.authorization);
    const body = JSON.parse(req.body || "{}") as SeenMint["body"];
    const seen: SeenMint = {
      installationId: String(installationId),
      headers: req.headers,
      body,
      claims,
      token: null,
    };
    fake.mints.push(seen);
    if (!acceptable(claims, appId))
      return json(res, 401, { message: "A JSON web token could not be decoded" });
    if (fake.refuseWith !== null) return json(res, fake.refuseWith, { message: "Refused" });
    const wanted = Object.entries(body.permissions ?? {});
    if (wanted.some(([name, level]) => !covers(fake.installationPermissions[name], level)))
      return json(res, 422, {
        message: "The permissions requested are not granted to this installation.",
        documentation_url:
          "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app",
      });
    seen.token = `ghs_${randomBytes(18).toString("hex")}`;
    const permissions = body.permissions ?? { contents: "read", metadata: "read" };
    live.set(seen.token, { repositories: body.repositories ?? [], permissions });
    json(res, 201, {
      token: seen.token,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      permissions,
      repository_selection: "selected",
      repositories: (body.repositories ?? []).map((name) => ({ name })),
    });
  });
  rest.route(`GET /app/installations/${installationId}`, (req, res) => {
    const claims = verifiedClaims(publicKey, req.headers.authorization);
    fake.installationReads.push(claims);
    if (!acceptable(claims, appId))
      return json(res, 401, { message: "A JSON web token could not be decoded" });
    if (fake.installationStatus !== null)
      return json(res, fake.installationStatus, { message: "Not Found" });
    // GitHub's installation object, abridged to the fields a client reads.
    json(res, 200, {
      id: installationId,
      app_id: appId,
      app_slug: "secondshift-test",
      target_id: 1,
      target_type: "Organization",
      account: { login: "acme", id: 1, type: "Organization" },
      repository_selection: "selected",
      access_tokens_url: `${rest.base}/app/installations/${installationId}/access_tokens`,
      repositories_url: `${rest.base}/installation/repositories`,
      html_url: `https://github.com/organizations/acme/settings/installations/${installationId}`,
      permissions: fake.installationPermissions,
      events: ["issues", "pull_request", "push"],
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      single_file_name: null,
      suspended_at: null,
    });
  });
  rest.route("DELETE /installation/token", (req, res) => {
    const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /, "");
    if (!live.delete(token)) return json(res, 401, { message: "Bad credentials" });
    fake.revoked.push(token);
    res.writeHead(204).end();
  });
  return fake;
}

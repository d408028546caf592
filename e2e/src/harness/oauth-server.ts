// An OAuth authorization server's token endpoint on loopback (RFC 6749 §6, the refresh grant, as
// a real one answers it: form body in, JSON out). Every token it issues is a fresh random
// planted value; `onIssue` lets a test hand the new access token to the resource server it
// protects. Refresh tokens rotate: a spent one is refused with 400 invalid_grant.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenEndpoint {
  url: string;
  /** The refresh token of every refresh request received, in order. */
  refreshes: string[];
  /** Refresh tokens still honoured. */
  valid: Set<string>;
  issued: Array<{ accessToken: string; refreshToken: string }>;
  onIssue: (issued: { accessToken: string; refreshToken: string }) => void;
  close(): Promise<void>;
}

export const plantedToken = (kind: string) =>
  `oauth-planted-${kind}-${randomBytes(12).toString("hex")}`;

export async function startTokenEndpoint(expiresInSeconds = 3600): Promise<TokenEndpoint> {
  const state = {
    refreshes: [] as string[],
    valid: new Set<string>(),
    issued: [] as TokenEndpoint["issued"],
    onIssue: (() => undefined) as TokenEndpoint["onIssue"],
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const token = form.get("refresh_token") ?? "";
      state.refreshes.push(token);
      res.setHeader("content-type", "application/json");
      if (
        req.method !== "POST" ||
        form.get("grant_type") !== "refresh_token" ||
        !state.valid.delete(token)
      ) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: "invalid_grant" }));
        return;
      }
      const issued = { accessToken: plantedToken("at"), refreshToken: plantedToken("rt") };
      state.valid.add(issued.refreshToken);
      state.issued.push(issued);
      state.onIssue(issued);
      res.end(
        JSON.stringify({
          access_token: issued.accessToken,
          refresh_token: issued.refreshToken,
          token_type: "Bearer",
          expires_in: expiresInSeconds,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/oauth/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

// A loopback OAuth token endpoint (RFC 6749 §6 refresh grant) that issues short-lived, rotating
// tokens and counts refresh requests, for the single-flight and refusal tests.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeOAuthServer {
  tokenEndpoint: string;
  /** Refresh requests received (each one spends a refresh token). */
  refreshes: string[];
  /** Refresh tokens the server still honours. */
  valid: Set<string>;
  /** Answer every refresh with 400 invalid_grant. */
  refuse: boolean;
  /** Held before answering, so concurrent callers overlap. */
  delayMs: number;
  issued: Array<{ accessToken: string; refreshToken: string }>;
  stop(): Promise<void>;
}

export async function startFakeOAuthServer(expiresInSeconds = 60): Promise<FakeOAuthServer> {
  let n = 0;
  const state = {
    refreshes: [] as string[],
    valid: new Set<string>(),
    refuse: false,
    delayMs: 0,
    issued: [] as Array<{ accessToken: string; refreshToken: string }>,
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const token = form.get("refresh_token") ?? "";
      state.refreshes.push(token);
      setTimeout(() => {
        res.setHeader("content-type", "application/json");
        if (state.refuse || form.get("grant_type") !== "refresh_token" || !state.valid.has(token)) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: "invalid_grant" }));
          return;
        }
        // Rotation: the spent refresh token stops working.
        state.valid.delete(token);
        n += 1;
        const issued = {
          accessToken: `at-fresh-${n}-4e1b7c`,
          refreshToken: `rt-fresh-${n}-9a2d5f`,
        };
        state.valid.add(issued.refreshToken);
        state.issued.push(issued);
        res.end(
          JSON.stringify({
            access_token: issued.accessToken,
            refresh_token: issued.refreshToken,
            token_type: "Bearer",
            expires_in: expiresInSeconds,
          }),
        );
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    tokenEndpoint: `http://127.0.0.1:${port}/token`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

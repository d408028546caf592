// A loopback REST fake: routes by "METHOD /path", records every request (path, query, headers,
// body) so tests can assert what was sent — and that a refused call sent nothing.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse, base: string) => void;

/** A route with path parameters: `match` holds the pattern's capture groups. */
export type PatternHandler = (
  req: SeenRequest,
  res: ServerResponse,
  match: RegExpExecArray,
) => void | Promise<void>;

export interface FakeRest {
  base: string;
  requests: SeenRequest[];
  route(key: string, handler: Handler): void;
  /** Tried in order when no exact route matches, e.g. ("GET", /^\/repos\/([^/]+)$/). */
  routePattern(method: string, pattern: RegExp, handler: PatternHandler): void;
  stop(): Promise<void>;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers })
    .end(JSON.stringify(body));
}

export async function startFakeRest(): Promise<FakeRest> {
  const routes = new Map<string, Handler>();
  const patterns: Array<{ method: string; pattern: RegExp; handler: PatternHandler }> = [];
  const requests: SeenRequest[] = [];
  let base = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const seen: SeenRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(seen);
      const handler = routes.get(`${seen.method} ${seen.path}`);
      if (handler) return handler(seen, res, base);
      for (const p of patterns) {
        const match = p.method === seen.method ? p.pattern.exec(seen.path) : null;
        if (match) return void p.handler(seen, res, match);
      }
      json(res, 404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    base,
    requests,
    route: (key, handler) => void routes.set(key, handler),
    routePattern: (method, pattern, handler) => void patterns.push({ method, pattern, handler }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

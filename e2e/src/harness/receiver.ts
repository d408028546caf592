// A loopback webhook receiver that records every delivery and can be switched off (answering
// 503) to exercise retries.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export async function startReceiver(path: string): Promise<{
  url: string;
  received: Received[];
  setUp(up: boolean): void;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  let up = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (!up) {
        res.writeHead(503).end("down");
        return;
      }
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    setUp: (value) => {
      up = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

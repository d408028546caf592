// Reads a request body into memory up to a cap (the body is parsed to reserve budget, so it
// cannot be streamed up). A declared length over the cap is refused before reading anything.
import type { IncomingMessage } from "node:http";
import { AppError } from "@secondshift/errors";

const tooLarge = (max: number) =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than the gateway's limit of ${max} bytes.`,
    { reason: "BODY_TOO_LARGE" },
  );

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete)
        reject(
          new AppError(
            "BAD_REQUEST",
            "The client closed the connection before sending the whole request.",
            { reason: "REQUEST_INCOMPLETE" },
          ),
        );
    });
  });
}

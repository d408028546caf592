// Wraps a response body so it is cut past maxResponseBytes or at the deadline, while keeping
// backpressure: a chunk is read from upstream only when the consumer asks for one (pull with
// highWaterMark 0), so a slow client slows the upstream read instead of buffering it.
// The Node stream class by name: the same one as the global, but typed as undici expects even
// when a consumer type-checks with the DOM library (the web app).
import { ReadableStream } from "node:stream/web";
import { tooLarge } from "./errors.ts";
import type { Deadline } from "./deadline.ts";

export function limitBody(
  /** undici types a body as ReadableStream<any>; its chunks are bytes. */
  source: ReadableStream,
  host: string,
  maxBytes: number,
  deadline: Deadline,
): ReadableStream<Uint8Array> {
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  let received = 0;
  let onDeadline: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The deadline errors this stream even while the consumer is not reading.
        onDeadline = () => {
          controller.error(deadline.signal.reason);
          reader.cancel(deadline.signal.reason).catch(() => undefined);
        };
        if (deadline.signal.aborted) onDeadline();
        else deadline.signal.addEventListener("abort", onDeadline, { once: true });
      },
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          // Prefer our typed reason (timeout, caller abort) over undici's generic one.
          deadline.clear();
          controller.error(deadline.signal.aborted ? deadline.signal.reason : error);
          return;
        }
        if (chunk.done) {
          deadline.clear();
          controller.close();
          return;
        }
        received += chunk.value.byteLength;
        if (received > maxBytes) {
          const error = tooLarge(host, maxBytes);
          if (onDeadline) deadline.signal.removeEventListener("abort", onDeadline);
          controller.error(error);
          deadline.abort(error);
          reader.cancel(error).catch(() => undefined);
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        deadline.clear();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

// Wraps a response body so it is cut past maxResponseBytes or at the deadline, while keeping
// backpressure: a chunk is read from upstream only when the consumer asks for one (pull with
// highWaterMark 0), so a slow client slows the upstream read instead of buffering it.
import { Transform, type Readable, type TransformCallback } from "node:stream";
import zlib from "node:zlib";
import { tooLarge } from "./errors.ts";
import type { Deadline } from "./deadline.ts";

export function limitBody(
  source: ReadableStream<Uint8Array>,
  host: string,
  maxBytes: number,
  deadline: Deadline,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
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

const noop = (): void => undefined;

/** At most this many content codings are undone, as in undici's fetch (CVE-2022-32206 class). */
const MAX_CONTENT_CODINGS = 5;

/** Undoes `deflate` with or without the zlib wrapper (servers send both), as fetch does. */
class InflateEither extends Transform {
  #inflate: Transform | null = null;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.#inflate === null) {
      if (chunk.length === 0) return callback();
      const options = {
        flush: zlib.constants.Z_SYNC_FLUSH,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      };
      this.#inflate =
        ((chunk[0] ?? 0) & 0x0f) === 0x08
          ? zlib.createInflate(options)
          : zlib.createInflateRaw(options);
      this.#inflate.on("data", (data: Buffer) => this.push(data));
      this.#inflate.on("end", () => this.push(null));
      this.#inflate.on("error", (error) => this.destroy(error));
    }
    this.#inflate.write(chunk, callback);
  }
  override _final(callback: (error?: Error | null) => void) {
    if (this.#inflate === null) this.push(null);
    else this.#inflate.end();
    callback();
  }
}

/**
 * The decoders for a Content-Encoding header, outermost last, exactly those fetch undoes
 * (gzip, x-gzip, deflate, br); an unknown coding leaves the body as it is, as fetch does.
 */
export function contentDecoders(contentEncoding: string | null): Transform[] | Error {
  const codings = contentEncoding ? contentEncoding.toLowerCase().split(",") : [];
  if (codings.length > MAX_CONTENT_CODINGS)
    return new Error(`too many content-encodings in response: ${codings.length}`);
  const decoders: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i -= 1) {
    const coding = (codings[i] ?? "").trim();
    if (coding === "gzip" || coding === "x-gzip")
      decoders.push(
        zlib.createGunzip({
          flush: zlib.constants.Z_SYNC_FLUSH,
          finishFlush: zlib.constants.Z_SYNC_FLUSH,
        }),
      );
    else if (coding === "deflate") decoders.push(new InflateEither());
    else if (coding === "br")
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    else return [];
  }
  return decoders;
}

/**
 * The response body of the request()-based fetch path as the caller's web stream, with the
 * same guarantees as limitBody in a single stream layer: a chunk is taken from the Node stream
 * only when the consumer pulls (highWaterMark 0; below it undici's own Readable pauses the
 * socket when its buffer is full), bytes are counted after decoding, and the deadline errors
 * the stream even while nobody reads (also once undici has received the whole body).
 */
export function nodeBodyStream(
  source: Readable,
  host: string,
  maxBytes: number,
  deadline: Deadline,
): ReadableStream<Uint8Array> {
  let received = 0;
  let done = false;
  let wake: (() => void) | null = null;
  const onWake = (): void => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  let onError: (error: unknown) => void = noop;
  const onDeadline = (): void => {
    onError(deadline.signal.reason);
    source.destroy();
  };
  const finish = (): void => {
    done = true;
    deadline.clear();
    deadline.signal.removeEventListener("abort", onDeadline);
    source.off("readable", onWake);
    source.off("end", onWake);
    onWake();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onError = (error) => {
          if (done) return;
          finish();
          // Prefer our typed reason (timeout, size, caller abort) over undici's generic one; a
          // connection lost mid-body reads as fetch reports it: TypeError("terminated").
          controller.error(
            deadline.signal.aborted
              ? deadline.signal.reason
              : new TypeError("terminated", { cause: error }),
          );
        };
        source.on("error", onError);
        source.on("readable", onWake);
        source.on("end", onWake);
        if (deadline.signal.aborted) onDeadline();
        else deadline.signal.addEventListener("abort", onDeadline, { once: true });
      },
      async pull(controller) {
        while (!done) {
          const chunk = source.read() as Buffer | null;
          if (chunk !== null) {
            received += chunk.byteLength;
            if (received > maxBytes) {
              const error = tooLarge(host, maxBytes);
              finish();
              controller.error(error);
              deadline.abort(error);
              source.destroy(error);
              return;
            }
            // A copy, as fetch hands out: the chunk may be a view into a larger socket buffer.
            controller.enqueue(new Uint8Array(chunk));
            return;
          }
          if (source.readableEnded) {
            finish();
            controller.close();
            return;
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
      cancel() {
        if (!done) finish();
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

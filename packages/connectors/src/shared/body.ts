// Reads an upstream response body without ever holding more than a bounded amount: the rest of
// the stream is cancelled (so the upstream connection is released) and the body marked cut.
export async function readBodyCapped(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; complete: boolean }> {
  if (response.body === null) return { text: "", complete: true };
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      complete = false;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(all.subarray(0, Math.min(size, maxBytes))), complete };
}

/** Drains and discards a body (error responses), bounded, so sockets are reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

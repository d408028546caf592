// Reads usage on the side of a response that is being passed through unchanged. SSE is parsed
// line by line as chunks arrive (only `data:` payloads that mention usage are JSON-parsed, to
// keep the per-chunk cost small); a JSON body is collected and parsed once at the end.
import { StringDecoder } from "node:string_decoder";
import type { Charge } from "./budget.ts";
import type { WireFormat } from "./routes.ts";
import { chargeFromJson, foldEvent, type StreamUsage } from "./usage.ts";

export interface UsageTap {
  write(chunk: Uint8Array): void;
  /** The provider-reported usage, or null if it never (fully) arrived. */
  result(): Charge | null;
}

const mentionsUsage = /"usage"\s*:\s*\{/;

export function sseUsageTap(format: WireFormat): UsageTap {
  const decoder = new StringDecoder("utf8");
  const state: StreamUsage = { anthropic: {}, final: null };
  let pending = "";
  let data: string[] = [];
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join("\n");
    data = [];
    if (!mentionsUsage.test(payload)) return;
    try {
      const event = JSON.parse(payload) as unknown;
      if (typeof event === "object" && event !== null)
        foldEvent(format, state, event as Record<string, unknown>);
    } catch {
      // Not JSON (e.g. "[DONE]"): nothing to account.
    }
  };
  return {
    write(chunk) {
      pending += decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      let start = 0;
      for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n", start)) {
        let line = pending.slice(start, nl);
        start = nl + 1;
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") dispatch();
        else if (line.startsWith("data:"))
          data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      }
      pending = pending.slice(start);
    },
    result: () => state.final,
  };
}

export function jsonUsageTap(format: WireFormat, maxBytes: number): UsageTap {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    write(chunk) {
      size += chunk.byteLength;
      if (size <= maxBytes)
        chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    },
    result() {
      if (size > maxBytes) return null;
      try {
        return chargeFromJson(format, JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        return null;
      }
    },
  };
}

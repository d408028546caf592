// Tool results go back to the model as untrusted data: text only, never larger than the caller's
// cap. Cutting happens on a UTF-8 character boundary and is marked, so the model (and the
// transcript) can tell that it saw only part of the result.
import type { ToolResult } from "../types.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return { text, cut: false };
  let end = Math.max(0, maxBytes);
  // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: decoder.decode(bytes.subarray(0, end)), cut: true };
}

export function truncationNote(maxBytes: number): string {
  return `\n[truncated: the result exceeded ${maxBytes} bytes]`;
}

/** Builds a ToolResult from text parts whose total size stays within `maxBytes`. */
export function buildResult(parts: string[], maxBytes: number, isError = false): ToolResult {
  const content: ToolResult["content"] = [];
  let remaining = maxBytes;
  let truncated = false;
  for (const part of parts) {
    if (remaining <= 0) {
      truncated = true;
      break;
    }
    const { text, cut } = cutUtf8(part, remaining);
    content.push({ type: "text", text });
    remaining -= encoder.encode(text).byteLength;
    if (cut) {
      truncated = true;
      break;
    }
  }
  if (truncated) {
    // The note is added after the cap on purpose: it is ours, not the service's, and short.
    const last = content.at(-1);
    if (last) last.text += truncationNote(maxBytes);
    else content.push({ type: "text", text: truncationNote(maxBytes).trimStart() });
  }
  return { content, isError, truncated };
}

export function textResult(text: string, maxBytes: number, isError = false): ToolResult {
  return buildResult([text], maxBytes, isError);
}

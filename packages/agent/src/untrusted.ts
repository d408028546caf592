// P01: every tool result reaches the model inside an untrusted-data block. Content that tries to
// close the block early (to smuggle "instructions" after it) has its tags neutralised, so the
// only real closing tag is the one we add.
import type { SecretMasker } from "@secondshift/logging";
import { UNTRUSTED_DATA_TAG } from "@secondshift/vocabulary";
import { defuseMarker } from "./prompt.ts";

// The vocabulary owns the format: the web app reads the block back with readUntrustedBlock.
const TAG = UNTRUSTED_DATA_TAG;

/** `<untrusted-data`, `</untrusted-data`, `< / UNTRUSTED-DATA`: any spelling a model would read as the tag. */
const TAG_PATTERN = /<(\s*\/?\s*)untrusted-data/gi;

export function neutralise(content: string): string {
  return defuseMarker(content.replace(TAG_PATTERN, "&lt;$1untrusted-data"));
}

/** Cuts content to `maxChars`, saying how much was left out so the model can narrow its request. */
export function capLength(content: string, maxChars: number): { text: string; truncated: boolean } {
  if (content.length <= maxChars) return { text: content, truncated: false };
  const omitted = content.length - maxChars;
  return {
    text: `${content.slice(0, maxChars)}\n[truncated: ${omitted} more characters not shown]`,
    truncated: true,
  };
}

/**
 * The text the model sees for one tool result: masked (no registered secret reaches the
 * model), capped, neutralised, then wrapped. `source` is always a name we chose, never raw
 * model output.
 */
export function wrapUntrusted(
  source: string,
  content: string,
  options: { masker: SecretMasker; maxChars: number },
): { text: string; truncated: boolean } {
  const capped = capLength(options.masker.mask(content), options.maxChars);
  const safeSource = source.replace(/[^A-Za-z0-9_:.-]/g, "_");
  return {
    text: `<${TAG} source="tool:${safeSource}">\n${neutralise(capped.text)}\n</${TAG}>`,
    truncated: capped.truncated,
  };
}

// The forms in which a secret value can appear in text the process writes: raw, JSON-escaped
// (most sinks see serialised JSON), URL-encoded (query strings, form bodies) and base64
// (Basic auth headers, encoded configs). Masking every form means a secret re-encoded on its way
// to a log line is still caught.

/** Shorter values would mask ordinary words; real secrets are far longer. */
export const MIN_SECRET_LENGTH = 6;

/** Every form of `value` worth masking; empty when the value is too short to be a secret. */
export function secretForms(value: string): string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set([
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    // application/x-www-form-urlencoded (URLSearchParams): "+" for spaces, "!'()~" escaped.
    new URLSearchParams({ v: value }).toString().slice(2),
    ...base64Forms(value),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * Base64 of a secret embedded in a longer text depends on where the secret starts: each base64
 * character carries 6 bits, so the secret's first bytes share characters with whatever precedes
 * it, and its last bytes with whatever follows. For each of the 3 possible alignments (the secret
 * at a multiple of 3 bytes, or 1 or 2 bytes later), this drops the 0, 1 or 2 leading bytes that
 * share a group with unknown bytes, encodes the rest and keeps only the characters fixed by the
 * secret's own bits — the stable inner part, as GitHub Actions masks it. Both alphabets.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms: string[] = [];
  for (let skip = 0; skip < 3 && skip < bytes.length; skip++) {
    const rest = bytes.subarray(skip);
    // 4 characters per 3 bytes; a trailing partial group fixes floor(8n/6) characters in all.
    const stable = Math.floor((rest.length * 4) / 3);
    forms.push(rest.toString("base64").slice(0, stable));
    forms.push(rest.toString("base64url").slice(0, stable));
  }
  return forms;
}

// Readers for a webhook payload, field by field. A payload is attacker-shaped until proven
// otherwise (a signed delivery is GitHub's, but its texts are anyone's): every field the intake
// uses is read through these, and a field of the wrong type is absent, never a crash.
export type Loose = Record<string, unknown>;

export const isObject = (v: unknown): v is Loose =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const object = (v: unknown): Loose | undefined => (isObject(v) ? v : undefined);

export const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A non-empty string. */
export const name = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : undefined;

/** A positive safe integer (numbers, ids). */
export const positive = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : undefined;

/** A numeric id as text, whether GitHub sent it as a number or as a string. */
export const numericId = (v: unknown): string | undefined => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return String(v);
  return typeof v === "string" && /^\d{1,20}$/.test(v) ? v : undefined;
};

/** An ISO timestamp GitHub sends (`2019-05-15T15:20:33Z`). */
export const timestamp = (v: unknown): Date | undefined => {
  if (typeof v !== "string") return undefined;
  const at = new Date(v);
  return Number.isNaN(at.getTime()) ? undefined : at;
};

/** A commit id: 40 (SHA-1) or 64 (SHA-256) hex digits. */
export const commitSha = (v: unknown): string | undefined =>
  typeof v === "string" && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(v) ? v : undefined;

/** Label names of a `labels` array; entries of another shape are left out. */
export const labelNames = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap((l) => name(object(l)?.name) ?? []) : [];

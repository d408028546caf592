// Stored JSON columns (requests, grants, payloads) read back field by field: an object is a
// plain one (not null, not an array); anything else is treated as absent.
export type Loose = Record<string, unknown>;

export const isObject = (v: unknown): v is Loose =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// Strict JSON for request bodies. The gateway forwards its own serialisation of what it parsed,
// never the client's bytes, so the provider reads exactly what the gateway checked. Duplicate
// keys are refused outright: parsers disagree on which one wins (JSON.parse keeps the last, some
// keep the first), and a body like `{"tools": [], "tools": [{"type": "web_search_…"}]}` must
// never mean one thing here and another upstream. JSON.parse cannot report duplicates (a
// reviver sees only the surviving value), so jsonc-parser's SAX-style `visit` walks the keys.
import { AppError } from "@secondshift/errors";
import { visit } from "jsonc-parser";

const invalid = (message: string, reason = "INVALID_JSON") =>
  new AppError("BAD_REQUEST", message, { reason });

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw invalid("The request body is not valid UTF-8.");
  }
}

/** The first key that appears twice in one object, with its path; null when there is none. */
export function findDuplicateKey(text: string): string | null {
  const open: Set<string>[] = [];
  let duplicate: string | null = null;
  visit(
    text,
    {
      onObjectBegin: () => {
        open.push(new Set());
      },
      onObjectEnd: () => {
        open.pop();
      },
      // `property` is the decoded key, so "tools" and "\u0074ools" are the same key.
      onObjectProperty: (property, _offset, _length, _line, _char, pathSupplier) => {
        const keys = open[open.length - 1];
        if (duplicate !== null || keys === undefined) return;
        if (keys.has(property)) duplicate = [...pathSupplier(), property].join(".");
        keys.add(property);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return duplicate;
}

/** Parses a request body that must be one JSON object with no duplicate keys (else 400). */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  const text = decode(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalid("The request body must be a JSON object.");
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== null) {
    throw invalid(
      `The request body names "${duplicate.slice(0, 200)}" twice; send each key once.`,
      "DUPLICATE_JSON_KEY",
    );
  }
  return parsed as Record<string, unknown>;
}

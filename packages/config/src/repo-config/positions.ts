// Maps a JSON path back to the YAML source, so each error can name its line.
import { isMap, isSeq, type Document, type LineCounter, type Node } from "yaml";
import type { DocumentIndex } from "./document-index.ts";

export type PathSegments = Array<string | number>;

/**
 * Offset of the node at `path` (or of its key, when `atKey`), or of the deepest ancestor found.
 * Each step is one lookup in the index, so locating every error costs O(errors × depth).
 */
export function offsetOf(
  doc: Document,
  index: DocumentIndex,
  path: PathSegments,
  atKey = false,
): number {
  let node: unknown = doc.contents;
  let offset = doc.contents?.range?.[0] ?? 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = index.pairs.get(node)?.get(String(segment));
      if (!pair) return offset;
      const keyRange = (pair.key as Node | null)?.range;
      if (last && atKey && keyRange) return keyRange[0];
      node = pair.value;
      const valueRange = (pair.value as Node | null)?.range;
      offset = valueRange ? valueRange[0] : (keyRange?.[0] ?? offset);
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment] as Node | undefined;
      if (!item) return offset;
      node = item;
      offset = item.range?.[0] ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

export function lineAndColumn(
  lineCounter: LineCounter,
  offset: number,
): { line: number; column: number } {
  const pos = lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/**
 * A value from the file as shown in an error: long ones are cut, so a 200 KB key or value does
 * not come back 50 times in the error list.
 */
export function shorten(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** `jobs.nightly.tools.mcp[0].label`; odd keys are quoted: `jobs["a b"]`. */
export function formatPath(path: PathSegments): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment) && segment.length <= 60) {
      out += out ? `.${segment}` : segment;
    } else out += `[${JSON.stringify(shorten(segment))}]`;
  }
  return out;
}

/** Splits an ajv instancePath (JSON pointer) into segments; array indexes become numbers. */
export function pointerToPath(pointer: string, data: unknown): PathSegments {
  if (!pointer) return [];
  const out: PathSegments = [];
  let value: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      out.push(Number(segment));
      value = value[Number(segment)];
    } else {
      out.push(segment);
      value =
        value && typeof value === "object"
          ? (value as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return out;
}

// Maps a JSON path back to the YAML source, so each error can name its line.
import type { DocumentIndex } from "./document-index.ts";
import type { YamlNode } from "./yaml-tree.ts";

export type PathSegments = Array<string | number>;

/**
 * Offset of the node at `path` (or of its key, when `atKey`), or of the deepest ancestor found.
 * Each step is one lookup in the index, so locating every error costs O(errors × depth).
 */
export function offsetOf(
  root: YamlNode | null,
  index: DocumentIndex,
  path: PathSegments,
  atKey = false,
): number {
  let node = root;
  let offset = root?.start ?? 0;
  for (let i = 0; i < path.length && node; i++) {
    const segment = path[i];
    if (node.kind === "map") {
      const pair = index.pairs.get(node)?.get(String(segment));
      if (!pair) return offset;
      if (i === path.length - 1 && atKey) return pair.key.start;
      node = pair.value;
    } else if (node.kind === "seq" && typeof segment === "number") {
      const item = node.items[segment];
      if (!item) return offset;
      node = item;
    } else {
      return offset;
    }
    offset = node.start;
  }
  return offset;
}

/** 1-based line and column of an offset, by binary search over the line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
      this.starts.push(at + 1);
    }
  }

  lineAndColumn(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }
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

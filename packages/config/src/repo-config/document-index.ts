// One walk over the YAML tree that (1) indexes every mapping's pairs by the key they become in
// JavaScript, so an error path finds its line in O(depth) instead of a search per error, and
// (2) finds what must be refused before the tree is converted: keys that become the same key
// once read (`1` and `"1"`, `true` and `"true"`, `null` and `""`), which would otherwise be
// silently last-wins, and keys that are not plain scalars.
// The `yaml` library's own `uniqueKeys` check is not used: it compares each key with every
// earlier key of its mapping (quadratic: 20,000 keys took seconds) and compares scalar values,
// so `1` (a number) and `"1"` (a string) pass it and then collide in the JavaScript object.
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Pair,
  type Scalar,
  type YAMLMap,
} from "yaml";
import type { PathSegments } from "./positions.ts";

export interface DuplicateKey {
  path: PathSegments;
  first: Scalar;
  second: Scalar;
  key: string;
}

export interface DocumentIndex {
  /** Each mapping's pairs by JavaScript key; the first pair wins for a duplicated key. */
  pairs: WeakMap<YAMLMap, Map<string, Pair>>;
  duplicates: DuplicateKey[];
  /** Pairs whose key is an alias, a list or a map, with the path of their mapping. */
  complexKeys: Array<{ path: PathSegments; offset: number }>;
  aliases: number;
}

/** The property name a scalar key becomes in a JavaScript object (as `yaml`'s `toJS` does). */
export function jsKeyOf(key: Scalar): string {
  const value: unknown = key.value;
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  return JSON.stringify(value) ?? ""; // the core schema resolves no other scalar type
}

export function indexDocument(root: unknown): DocumentIndex {
  const index: DocumentIndex = {
    pairs: new WeakMap(),
    duplicates: [],
    complexKeys: [],
    aliases: 0,
  };
  const path: PathSegments = [];
  // The parser stops at a small nesting depth (yaml-document.ts), so recursion is bounded.
  const walk = (node: unknown): void => {
    if (isAlias(node)) index.aliases++;
    else if (isMap(node)) walkMap(node);
    else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        path.push(i);
        walk(item);
        path.pop();
      });
    }
  };
  const walkMap = (map: YAMLMap): void => {
    const byKey = new Map<string, Pair>();
    index.pairs.set(map, byKey);
    for (const pair of map.items) {
      if (!isPair(pair)) continue;
      if (!isScalar(pair.key)) {
        if (isAlias(pair.key)) index.aliases++;
        const range = (pair.key as { range?: [number, number, number] } | null)?.range;
        index.complexKeys.push({ path: [...path], offset: range?.[0] ?? 0 });
        continue;
      }
      const key = jsKeyOf(pair.key);
      const earlier = byKey.get(key);
      if (earlier) {
        index.duplicates.push({
          path: [...path, key],
          first: earlier.key as Scalar,
          second: pair.key,
          key,
        });
      } else {
        byKey.set(key, pair);
      }
      path.push(key);
      walk(pair.value);
      path.pop();
    }
  };
  walk(root);
  return index;
}

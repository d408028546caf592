// One walk over the YAML tree that (1) indexes every mapping's pairs by the key they become in
// JavaScript, so an error path finds its line in O(depth) instead of a search per error, and
// (2) finds what must be refused before the data is built: keys that become the same key once
// read (`1` and `"1"`, `true` and `"true"`, `~` and `null`), which would otherwise be silently
// last-wins, and keys that are not plain scalars.
import type { PathSegments } from "./positions.ts";
import type { YamlMap, YamlNode, YamlPair } from "./yaml-tree.ts";

export interface DuplicateKey {
  path: PathSegments;
  first: YamlNode;
  second: YamlNode;
  key: string;
}

export interface DocumentIndex {
  /** Each mapping's pairs by JavaScript key; the first pair wins for a duplicated key. */
  pairs: WeakMap<YamlMap, Map<string, YamlPair>>;
  duplicates: DuplicateKey[];
  /** Pairs whose key is an alias, a tagged value, a list or a map, with the path of their mapping. */
  complexKeys: Array<{ path: PathSegments; offset: number }>;
}

export function indexDocument(root: YamlNode | null): DocumentIndex {
  const index: DocumentIndex = { pairs: new WeakMap(), duplicates: [], complexKeys: [] };
  const path: PathSegments = [];
  // The reader stops at a small nesting depth (yaml-tree.ts), so recursion is bounded.
  const walk = (node: YamlNode): void => {
    if (node.kind === "map") walkMap(node);
    else if (node.kind === "seq") {
      node.items.forEach((item, i) => {
        path.push(i);
        walk(item);
        path.pop();
      });
    }
  };
  const walkMap = (map: YamlMap): void => {
    const byKey = new Map<string, YamlPair>();
    index.pairs.set(map, byKey);
    for (const pair of map.pairs) {
      if (pair.name === null) {
        index.complexKeys.push({ path: [...path], offset: pair.key.start });
        continue;
      }
      const earlier = byKey.get(pair.name);
      if (earlier) {
        const key = pair.name;
        index.duplicates.push({ path: [...path, key], first: earlier.key, second: pair.key, key });
      } else {
        byKey.set(pair.name, pair);
      }
      path.push(pair.name);
      walk(pair.value);
      path.pop();
    }
  };
  if (root) walk(root);
  return index;
}

// The tree of positions that every error's line comes from: each kind of node and key form
// must point at the right place in the text, or errors name the wrong line.
import { describe, expect, it } from "vitest";
import { LineIndex } from "./positions.ts";
import { constructData, readYamlTree, type YamlNode } from "./yaml-tree.ts";

const limits = { maxDepth: 32, maxExpandedSize: 1000 };

function tree(text: string) {
  const read = readYamlTree(text, limits);
  if (!read.ok) throw new Error(read.problem.message);
  return read.tree;
}

/** Where each mapping key and sequence item starts, as `path → line:column`. */
function positions(text: string): Record<string, string> {
  const lines = new LineIndex(text);
  const at = (offset: number) => {
    const { line, column } = lines.lineAndColumn(offset);
    return `${line}:${column}`;
  };
  const out: Record<string, string> = {};
  const walk = (node: YamlNode, path: string) => {
    if (node.kind === "map") {
      for (const pair of node.pairs) {
        const child = `${path}/${pair.name ?? "?"}`;
        out[`${child} (key)`] = at(pair.key.start);
        out[child] = at(pair.value.start);
        walk(pair.value, child);
      }
    } else if (node.kind === "seq") {
      node.items.forEach((item, i) => {
        out[`${path}/${i}`] = at(item.start);
        walk(item, `${path}/${i}`);
      });
    }
  };
  const root = tree(text).root;
  if (root) walk(root, "");
  return out;
}

describe("readYamlTree: positions", () => {
  it("block and flow mappings, quoted keys, comments, block scalars and sequences", () => {
    const text = [
      "# leading comment", // 1
      "version: 1", // 2
      "jobs:", // 3
      "  'quoted key':", // 4
      "    prompt: |", // 5
      "      line one", // 6
      "      line two", // 7
      '    "tools": {github: {tools: [a, "b"]}}', // 8
      "    list:", // 9
      "      - first # trailing comment", // 10
      "      -   second", // 11
    ].join("\n");
    expect(positions(text)).toMatchObject({
      "/version (key)": "2:1",
      "/version": "2:10",
      "/jobs/quoted key (key)": "4:3",
      "/jobs/quoted key/prompt (key)": "5:5",
      "/jobs/quoted key/tools (key)": "8:5",
      "/jobs/quoted key/tools/github (key)": "8:15",
      "/jobs/quoted key/tools/github/tools/0": "8:32",
      "/jobs/quoted key/tools/github/tools/1": "8:35", // the quote
      "/jobs/quoted key/list/0": "10:9",
      "/jobs/quoted key/list/1": "11:11",
    });
  });

  it("CRLF line endings and an explicit document start keep lines right", () => {
    const text = "---\r\nversion: 1\r\njobs:\r\n  a:\r\n    name: x\r\n";
    expect(positions(text)).toMatchObject({ "/jobs/a/name (key)": "5:5" });
  });

  it("an anchored map and its alias: the alias is a node of its own, where it is written", () => {
    const text = "a: &x\n  k: v\nb: *x\n";
    const read = tree(text);
    expect(read.aliases).toBe(1);
    expect(positions(text)).toMatchObject({ "/a/k (key)": "2:3", "/b": "3:4" });
    const built = constructData(text, read);
    expect(built).toEqual({ ok: true, data: { a: { k: "v" }, b: { k: "v" } } });
  });

  it("keys carry the name they become in JavaScript, by the core schema", () => {
    const root = tree('1: a\n"1": b\n0x10: c\n~: d\ntrue: e\n1.0: f\n').root;
    expect(root?.kind === "map" && root.pairs.map((p) => p.name)).toEqual([
      "1",
      "1",
      "16",
      "null",
      "true",
      "1",
    ]);
  });

  it("the expanded size counts what each alias repeats", () => {
    const read = tree("a: &x [1, 2, 3]\nb: [*x, *x]\n");
    // root map 1 + a's list 4 + b's list 1 + two aliases of 4 each + two scalar keys
    expect(read.expandedSize).toBe(1 + 2 + 4 + 1 + 8);
  });
});

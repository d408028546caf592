import { describe, expect, it } from "vitest";
import { AhoCorasick } from "./aho-corasick.ts";

/** The same ranges computed the slow way: every occurrence via indexOf, then merged. */
function naiveRanges(patterns: string[], text: string): Array<[number, number]> {
  const hits: Array<[number, number]> = [];
  for (const p of patterns)
    for (let i = text.indexOf(p); i !== -1; i = text.indexOf(p, i + 1))
      hits.push([i, i + p.length]);
  hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of hits) {
    const last = merged[merged.length - 1];
    if (last && s < last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

describe("AhoCorasick", () => {
  it("finds every pattern in one pass, with UTF-16 offsets", () => {
    const ac = new AhoCorasick(["he", "she", "hers", "his", "é😀x"]);
    expect(ac.coveredRanges("ushers")).toEqual([[1, 6]]);
    expect(ac.coveredRanges("a his b")).toEqual([[2, 5]]);
    expect(ac.coveredRanges("aé😀xb")).toEqual([[1, 5]]);
    expect(ac.coveredRanges("nothing to see")).toEqual([]);
    expect(new AhoCorasick([]).coveredRanges("anything")).toEqual([]);
  });

  it("merges overlapping and nested occurrences but keeps adjacent ones apart", () => {
    const ac = new AhoCorasick(["abcdef", "cdefgh", "cd", "xyz"]);
    expect(ac.coveredRanges("..abcdefgh..")).toEqual([[2, 10]]);
    expect(ac.coveredRanges("abcdefxyz")).toEqual([
      [0, 6],
      [6, 9],
    ]);
    // A short pattern seen first, then a longer one that starts before it.
    expect(new AhoCorasick(["bc", "abcd"]).coveredRanges("abcd")).toEqual([[0, 4]]);
  });

  it("matches code units, so a combining mark after a pattern does not hide it", () => {
    const ac = new AhoCorasick(["secret-1"]);
    expect(ac.coveredRanges("secret-1\u0301")).toEqual([[0, 8]]);
  });

  it("agrees with a naive search on random inputs over a small alphabet", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (len: number) => Array.from({ length: len }, () => "abc"[rand(3)]).join("");
    for (let round = 0; round < 300; round++) {
      const patterns = Array.from({ length: 1 + rand(6) }, () => word(1 + rand(5)));
      const text = word(rand(40));
      expect(new AhoCorasick(patterns).coveredRanges(text)).toEqual(naiveRanges(patterns, text));
    }
  });
});

// Aho–Corasick automaton over UTF-16 code units: finds every occurrence of any of its patterns
// in one left-to-right pass, so the cost of a scan depends on the text's length, not on how many
// patterns there are. Built once per set of patterns (the masker rebuilds it after a change).
//
// Not an npm library: the maintained one (modern-ahocorasick) matches whole grapheme clusters,
// so a secret followed by a combining mark ("secret\u0301") is not found — a way around the
// masker; the others are unmaintained or mix code points with code units.

/** A half-open range [start, end) of UTF-16 offsets. */
export type Range = readonly [start: number, end: number];

export class AhoCorasick {
  /** children[state]: next state by code unit. State 0 is the root (the empty prefix). */
  private readonly children: Array<Map<number, number>> = [new Map<number, number>()];
  /** fail[state]: the state of the longest proper suffix that is also a trie prefix. */
  private readonly fail: number[] = [0];
  /** Length of the longest pattern ending at this state (itself or via a suffix), 0 if none. */
  private readonly longest: number[] = [0];

  constructor(patterns: Iterable<string>) {
    for (const pattern of patterns) if (pattern.length > 0) this.insert(pattern);
    this.link();
  }

  /** Number of trie states, root included (for tests and diagnostics). */
  get states(): number {
    return this.children.length;
  }

  /**
   * The ranges covered by occurrences of the patterns, in order; occurrences that overlap are
   * merged into one range, so a shorter pattern inside a longer one (or two that overlap) leaves
   * no character of either uncovered.
   */
  coveredRanges(text: string): Range[] {
    const ranges: Array<[number, number]> = [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      const length = this.longest[state]!;
      if (length > 0) cover(ranges, i + 1 - length, i + 1);
    }
    return ranges;
  }

  private step(from: number, unit: number): number {
    let state = from;
    for (;;) {
      const next = this.children[state]!.get(unit);
      if (next !== undefined) return next;
      if (state === 0) return 0;
      state = this.fail[state]!;
    }
  }

  private insert(pattern: string): void {
    let state = 0;
    for (let i = 0; i < pattern.length; i++) {
      const unit = pattern.charCodeAt(i);
      let next = this.children[state]!.get(unit);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map<number, number>());
        this.fail.push(0);
        this.longest.push(0);
        this.children[state]!.set(unit, next);
      }
      state = next;
    }
    this.longest[state] = pattern.length;
  }

  /** Breadth-first, so a state's failure target (shallower) is complete before the state. */
  private link(): void {
    const queue: number[] = [...this.children[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      // A state that ends a pattern already holds its own depth, the longest possible.
      if (this.longest[state] === 0) this.longest[state] = this.longest[this.fail[state]!]!;
      for (const [unit, child] of this.children[state]!) {
        this.fail[child] = state === 0 ? 0 : this.step(this.fail[state]!, unit);
        queue.push(child);
      }
    }
  }
}

/** Adds [start, end) to ranges sorted by end, merging every range it overlaps. */
function cover(ranges: Array<[number, number]>, start: number, end: number): void {
  let from = start;
  while (ranges.length > 0 && ranges[ranges.length - 1]![1] > from) {
    from = Math.min(from, ranges.pop()![0]);
  }
  ranges.push([from, end]);
}

// Secrets that arrived after their scope closed: a token refreshed by a tool call that outlived
// its run is still valid and may appear in a later line, so it stays masked for a bounded time,
// in a bounded set (past the limit the oldest leave first). They have a matcher of their own, so
// a run's start (its scope opened) never rebuilds an automaton over them; a late addition
// rebuilds this one, whose size the limit bounds (100 secrets: a few milliseconds).
import { AhoCorasick, type Range } from "./aho-corasick.ts";
import { secretForms } from "./secret-forms.ts";

export interface LateSecretOptions {
  /** How long a secret registered after its scope closed stays masked (default 10 minutes). */
  lateSecretMs?: number;
  /** How many late secrets are kept at most; past it the oldest leave first (default 100). */
  maxLateSecrets?: number;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

export class LateSecrets {
  /** Value → its forms and when it leaves; in order of leaving (a refresh moves it last). */
  private readonly entries = new Map<string, { forms: string[]; leavesAt: number }>();
  private matcher: AhoCorasick | null = null;
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(options: LateSecretOptions) {
    this.ttlMs = options.lateSecretMs ?? 10 * 60_000;
    this.max = Math.max(1, options.maxLateSecrets ?? 100);
    this.now = options.now ?? Date.now;
  }

  /** Number of forms masked now. */
  get size(): number {
    let forms = 0;
    for (const entry of this.entries.values()) forms += entry.forms.length;
    return forms;
  }

  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** Masks the value from now for the late-secret time (again from now if it is here). */
  keep(value: string): void {
    this.expire();
    const known = this.entries.get(value);
    const forms = known?.forms ?? secretForms(value);
    if (forms.length === 0) return;
    this.entries.delete(value);
    this.entries.set(value, { forms, leavesAt: this.now() + this.ttlMs });
    if (!known) this.matcher = null;
    while (this.entries.size > this.max) this.dropOldest();
  }

  /** The ranges of `text` covered by a late secret's form. */
  coveredRanges(text: string): Range[] {
    this.expire();
    if (this.entries.size === 0) return [];
    this.matcher ??= new AhoCorasick([...this.entries.values()].flatMap((e) => e.forms));
    return this.matcher.coveredRanges(text);
  }

  /** Drops the secrets whose time is up (cheap when none is: the oldest is checked first). */
  private expire(): void {
    const now = this.now();
    for (const entry of this.entries.values()) {
      if (entry.leavesAt > now) return;
      this.dropOldest();
    }
  }

  private dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    this.entries.delete(oldest.value);
    this.matcher = null;
  }
}

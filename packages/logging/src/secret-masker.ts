// Replaces every secret value the process is handling with a mask, wherever it would be
// written: log lines, run events, error messages, webhook bodies. Each secret is matched in all
// its forms (raw, JSON-escaped, URL-encoded, base64: secret-forms.ts).
//
// Secrets have one of two lifetimes. Long-lived ones (`add` on the masker itself) stay for the
// process's life. Per-run, per-sync and per-request ones go into a scope (`masker.scope()`):
// while it is open every line the process writes masks them (the worker's logger is shared by
// all its runs); when it closes they leave. The matcher holds only what is live, so masking a
// line or starting a run costs the same after 20,000 runs as after one.
import { AhoCorasick } from "./aho-corasick.ts";
import { secretForms } from "./secret-forms.ts";

export const MASK = "[MASKED]";

/** The secret forms live in one process, shared by a masker and all its scopes. */
class LiveSecrets {
  /** Form → number of holders: the process-lifetime set once, each open scope once. */
  private readonly holders = new Map<string, number>();
  /** Built on the first mask after a change; its size follows the live forms only. */
  private matcher: AhoCorasick | null = null;
  /** Forms held for the process's life. */
  readonly permanent = new Set<string>();
  /** Open scopes that have an id, so code that knows only a run's id can reach its scope. */
  readonly scopes = new Map<string, SecretMasker>();

  get size(): number {
    return this.holders.size;
  }

  hold(form: string): void {
    const count = this.holders.get(form) ?? 0;
    this.holders.set(form, count + 1);
    if (count === 0) this.matcher = null;
  }

  release(form: string): void {
    const count = this.holders.get(form) ?? 0;
    if (count > 1) this.holders.set(form, count - 1);
    else if (this.holders.delete(form)) this.matcher = null;
  }

  mask(text: string): string {
    if (this.holders.size === 0) return text;
    this.matcher ??= new AhoCorasick(this.holders.keys());
    const ranges = this.matcher.coveredRanges(text);
    if (ranges.length === 0) return text;
    let masked = "";
    let last = 0;
    for (const [start, end] of ranges) {
      masked += text.slice(last, start) + MASK;
      last = end;
    }
    return masked + text.slice(last);
  }
}

export class SecretMasker {
  private live = new LiveSecrets();
  /** The forms this scope added; null on the masker itself, whose secrets stay. */
  private held: Set<string> | null = null;
  private id: string | undefined;
  private closed = false;

  /**
   * Registers secret values (too-short ones are ignored): for the process's life on the masker
   * itself, until `close` on a scope. A value added to a scope that is already closed (work that
   * outlived its run, e.g. a tool call abandoned at its timeout that then refreshed a token) stays
   * for the process's life: masking it too long is the safe side.
   */
  add(...values: Array<string | null | undefined>): void {
    for (const value of values) {
      if (!value) continue;
      for (const form of secretForms(value)) this.hold(form);
    }
  }

  /**
   * Opens a scope: a masker over the same live secrets (it masks everything this one does), whose
   * own additions leave when it is closed. With an id, `scopeFor(id)` finds it while it is open.
   */
  scope(id?: string): SecretMasker {
    const scope = new SecretMasker();
    scope.live = this.live;
    scope.held = new Set();
    if (id !== undefined) {
      scope.id = id;
      this.live.scopes.set(id, scope);
    }
    return scope;
  }

  /** The open scope with this id; this masker when there is none (its additions then stay). */
  scopeFor(id: string): SecretMasker {
    return this.live.scopes.get(id) ?? this;
  }

  /** Ends a scope: its secrets are no longer masked unless another holder still has them. */
  close(): void {
    if (this.held === null || this.closed) return;
    this.closed = true;
    for (const form of this.held) this.live.release(form);
    this.held.clear();
    if (this.id !== undefined && this.live.scopes.get(this.id) === this)
      this.live.scopes.delete(this.id);
  }

  /** Number of distinct secret forms masked now, across the masker and its open scopes. */
  get size(): number {
    return this.live.size;
  }

  mask(text: string): string {
    return this.live.mask(text);
  }

  /** Masks every string inside a JSON-compatible value, returning a copy. */
  maskValue<T>(value: T): T {
    if (this.live.size === 0) return value;
    return JSON.parse(this.mask(JSON.stringify(value))) as T;
  }

  private hold(form: string): void {
    const holder = this.held !== null && !this.closed ? this.held : this.live.permanent;
    if (holder.has(form)) return;
    holder.add(form);
    this.live.hold(form);
  }
}

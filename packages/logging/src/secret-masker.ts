// Replaces every secret value the process is handling with a mask, wherever it would be
// written: log lines, run events, error messages, webhook bodies. Each secret is matched in all
// its forms (raw, JSON-escaped, URL-encoded, base64: secret-forms.ts).
//
// Secrets have one of two lifetimes. Long-lived ones (`add` on the masker itself) stay for the
// process's life. Per-run, per-sync and per-request ones go into a scope (`masker.scope()`):
// while it is open every line the process writes masks them (the worker's logger is shared by
// all its runs); when it closes they leave. A secret that arrives after its scope closed (a token
// refreshed by a tool call that outlived its run) is still valid and may appear in a later line:
// it stays for a bounded time in a bounded set (late-secrets.ts). The matchers hold only what is
// live, so masking a line or starting a run costs the same after 20,000 runs as after one.
import { AhoCorasick, type Range } from "./aho-corasick.ts";
import { LateSecrets, type LateSecretOptions } from "./late-secrets.ts";
import { secretForms } from "./secret-forms.ts";

export const MASK = "[MASKED]";

export type SecretMaskerOptions = LateSecretOptions;

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
  readonly late: LateSecrets;

  constructor(options: SecretMaskerOptions) {
    this.late = new LateSecrets(options);
  }

  get size(): number {
    return this.holders.size + this.late.size;
  }

  get empty(): boolean {
    return this.holders.size === 0 && this.late.empty;
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
    const ranges = union(this.coveredRanges(text), this.late.coveredRanges(text));
    if (ranges.length === 0) return text;
    let masked = "";
    let last = 0;
    for (const [start, end] of ranges) {
      masked += text.slice(last, start) + MASK;
      last = end;
    }
    return masked + text.slice(last);
  }

  private coveredRanges(text: string): Range[] {
    if (this.holders.size === 0) return [];
    this.matcher ??= new AhoCorasick(this.holders.keys());
    return this.matcher.coveredRanges(text);
  }
}

/** Two lists of ranges (each sorted, none overlapping) as one, overlapping ranges merged. */
function union(a: Range[], b: Range[]): Range[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const merged: Array<[number, number]> = [];
  for (const [start, end] of [...a, ...b].sort((x, y) => x[0] - y[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export class SecretMasker {
  private live: LiveSecrets;
  /** The forms this scope added; null on the masker itself, whose secrets stay. */
  private held: Set<string> | null = null;
  private id: string | undefined;
  private closed = false;
  /** What `scopeFor` gives for a scope that is not open: its additions are late secrets. */
  private lateScope: SecretMasker | undefined;

  constructor(options: SecretMaskerOptions = {}) {
    this.live = new LiveSecrets(options);
  }

  /**
   * Registers secret values (too-short ones are ignored): for the process's life on the masker
   * itself, until `close` on a scope. A value added to a scope that is already closed (work that
   * outlived its run, e.g. a tool call abandoned at its timeout that then refreshed a token) is a
   * late secret: masked for `lateSecretMs`, then it leaves.
   */
  add(...values: Array<string | null | undefined>): void {
    for (const value of values) {
      if (!value) continue;
      if (this.closed) this.live.late.keep(value);
      else for (const form of secretForms(value)) this.hold(form);
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

  /**
   * The open scope with this id; when there is none (the run has ended), a closed scope whose
   * additions are late secrets.
   */
  scopeFor(id: string): SecretMasker {
    const open = this.live.scopes.get(id);
    if (open) return open;
    if (!this.lateScope) {
      this.lateScope = this.scope();
      this.lateScope.close();
    }
    return this.lateScope;
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
    if (this.live.empty) return value;
    return JSON.parse(this.mask(JSON.stringify(value))) as T;
  }

  private hold(form: string): void {
    const holder = this.held ?? this.live.permanent;
    if (holder.has(form)) return;
    holder.add(form);
    this.live.hold(form);
  }
}

// The SecretMasker as it was before scopes (one regular expression over every secret ever
// added, rebuilt after each addition), kept only so bench/masker.ts can compare against it.
const MASK = "[MASKED]";

/** Shorter values would mask ordinary words; real secrets are far longer. */
const MIN_SECRET_LENGTH = 6;

export class LegacySecretMasker {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | null = null;

  add(...values: Array<string | null | undefined>): void {
    for (const value of values) {
      if (!value || value.length < MIN_SECRET_LENGTH) continue;
      for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
        if (!this.secrets.has(form)) {
          this.secrets.add(form);
          this.pattern = null;
        }
      }
    }
  }

  get size(): number {
    return this.secrets.size;
  }

  mask(text: string): string {
    if (this.secrets.size === 0) return text;
    this.pattern ??= new RegExp(
      [...this.secrets]
        .sort((a, b) => b.length - a.length)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("|"),
      "g",
    );
    return text.replace(this.pattern, MASK);
  }

  /** Masks every string inside a JSON-compatible value, returning a copy. */
  maskValue<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return JSON.parse(this.mask(JSON.stringify(value))) as T;
  }
}

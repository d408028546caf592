// Provider kinds in words, with the base URL most people use.
export const PROVIDER_KINDS = {
  ANTHROPIC: { name: "Anthropic", baseUrl: "https://api.anthropic.com" },
  OPENAI: { name: "OpenAI-compatible", baseUrl: "https://api.openai.com/v1" },
} as const;

export type ProviderKindName = keyof typeof PROVIDER_KINDS;

/** Empty, or some kind's suggested URL: not typed by the owner, so a kind change replaces it. */
export function isDefaultBaseUrl(url: string): boolean {
  const trimmed = url.trim();
  return trimmed === "" || Object.values(PROVIDER_KINDS).some((k) => k.baseUrl === trimmed);
}

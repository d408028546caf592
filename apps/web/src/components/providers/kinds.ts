// Provider kinds in words, with the base URL most people use.
export const PROVIDER_KINDS = {
  ANTHROPIC: { name: "Anthropic", baseUrl: "https://api.anthropic.com" },
  OPENAI: { name: "OpenAI-compatible", baseUrl: "https://api.openai.com/v1" },
} as const;

export type ProviderKindName = keyof typeof PROVIDER_KINDS;

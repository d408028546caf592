// The allowed-models list as owners type it: one per line or comma separated; empty allows any.
export function parseModelList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((model) => model.trim())
    .filter((model) => model !== "");
}

export function describeModels(models: string[]): string {
  return models.length === 0 ? "Any model" : models.join(", ");
}

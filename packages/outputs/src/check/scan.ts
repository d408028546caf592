// The secret scan of a proposal's text (O05), before anything is written: (a) a value known to
// the run — whatever its masker scope holds (the run token, credentials the broker opened) —
// and (b) credential formats, by secretlint's recommended preset. A finding is named by its
// rule, never by the value.
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";

/** The part of the logging package's SecretMasker the scan needs. */
export interface KnownSecrets {
  mask(text: string): string;
}

const config = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
};

async function credentialFormat(text: string): Promise<string | null> {
  const result = await lintSource({
    source: { content: text, filePath: "proposal.txt", contentType: "text" },
    // maskSecrets: secretlint's own messages carry the value otherwise; they are not used here.
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const found = result.messages[0];
  return found ? `${found.ruleId} (${found.messageId})` : null;
}

/** Why the texts must not leave (a reason for the owner), or null when nothing was found. */
export async function secretFinding(
  texts: Record<string, string>,
  known: KnownSecrets,
): Promise<string | null> {
  for (const [field, text] of Object.entries(texts)) {
    if (known.mask(text) !== text)
      return `Refused: the ${field} contains a secret value known to this run.`;
    const rule = await credentialFormat(text);
    if (rule) return `Refused: the ${field} contains what looks like a credential (${rule}).`;
  }
  return null;
}

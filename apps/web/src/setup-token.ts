// First-run setup link. While no user exists, the web service makes a one-time setup token and
// prints the setup link once, so only someone who can read the service's output (the operator)
// can create the first account. The operator may waive it (SECONDSHIFT_SETUP_TOKEN_REQUIRED=false).
import { randomBytes } from "node:crypto";
import { needsSetup } from "@secondshift/accounts";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";

export async function prepareSetupToken(
  db: Db,
  options: { required: boolean; publicUrl: string; logger: Logger },
): Promise<() => string | null> {
  if (!options.required) return () => null;
  const token = randomBytes(24).toString("base64url");
  if (await needsSetup(db)) {
    const link = new URL("/setup", options.publicUrl);
    link.searchParams.set("token", token);
    // Deliberately printed: this link is how the operator reaches first-run setup.
    options.logger.warn(`No account exists yet. Create the first one at ${link.toString()}`);
  }
  return () => token;
}

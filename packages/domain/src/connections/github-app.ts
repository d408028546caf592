// A GitHub App connection: the app id and installation id are non-secret settings (shown to
// members), the app's private key is the write-only credential (encrypted, never returned; the
// worker mints an installation token per run from it, scoped to the job's repository — P03).
// Checked at creation so a wrong paste fails here, not at a run's first GitHub call.
import { AppError } from "@secondshift/errors";
import type { CreateConnectionInput } from "./manage.ts";

const isId = (value: unknown) =>
  (typeof value === "number" && Number.isInteger(value) && value > 0) ||
  (typeof value === "string" && /^\d{1,20}$/.test(value));

const PEM_PRIVATE_KEY =
  /^-----BEGIN (RSA )?PRIVATE KEY-----\s[\s\S]+\s-----END (RSA )?PRIVATE KEY-----\s*$/;

const invalid = (message: string) =>
  new AppError("BAD_REQUEST", message, { reason: "GITHUB_APP_INVALID" });

export function checkGithubApp(input: CreateConnectionInput): void {
  if (input.authType !== "GITHUB_APP") return;
  if (input.kind !== "GITHUB") throw invalid("GitHub App sign-in is only for GitHub connections.");
  const settings = input.settings ?? {};
  if (!isId(settings.appId) || !isId(settings.installationId))
    throw invalid(
      "A GitHub App connection needs the app's numeric ID (appId) and the installation's numeric ID (installationId).",
    );
  if (!input.credential || !PEM_PRIVATE_KEY.test(input.credential.trim()))
    throw invalid(
      "Paste the GitHub App's private key (the .pem file GitHub generated, starting with -----BEGIN RSA PRIVATE KEY-----).",
    );
}

// The credential a repository is fetched with comes from the owner's connection, decrypted
// here for one fetch and bound to its row and field (P06). A GitHub App connection holds the
// app's private key (credentialCiphertext) and its app and installation ids (settings); each
// fetch mints its own installation token, scoped to the one repository, through the caller's
// minter (the worker's goes out through netguard), and revokes it afterwards (P03).
import { decryptField, type Keyring } from "@secondshift/crypto";
import type { ConnectionAuth } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { GitCredential } from "./git-env.ts";

export interface RepositoryConnection {
  id: string;
  workspaceId: string;
  authType: ConnectionAuth;
  /** For GitHub Apps: the GitHub API base URL the installation token is requested from. */
  endpoint: string;
  /** For GitHub Apps: `{ appId, installationId }` (numbers or numeric strings). */
  settings: unknown;
  credentialCiphertext: Uint8Array | null;
  oauthAccessTokenCiphertext: Uint8Array | null;
  deletedAt: Date | null;
}

/** What a GitHub App installation token is minted from, for one repository. */
export interface InstallationTokenRequest {
  apiBase: string;
  appId: string;
  installationId: string;
  privateKey: string;
  /** The repository's name without its owner. */
  repositoryName: string;
  /** What the token may do there; the minter's default (reading contents) when absent. */
  permissions?: Readonly<Record<string, "read" | "write">>;
}

/** Mints a short-lived token for one fetch (GitHub App installations). */
export type MintInstallationToken = (
  request: InstallationTokenRequest,
) => Promise<{ token: string; revoke(): Promise<void> }>;

/** The fetch's credential; `revoke` (minted tokens only) is called once the fetch is done. */
export type RepositoryCredential = GitCredential & { revoke?: () => Promise<void> };

/** The credential as git takes it (user name and password only). */
export function gitCredential(credential: RepositoryCredential): GitCredential {
  return { username: credential.username, password: credential.password };
}

/** Hosts such as GitHub accept any user name with a token as the password. */
export const TOKEN_USERNAME = "x-access-token";

export async function repositoryCredential(
  keyring: Keyring,
  connection: RepositoryConnection | null,
  repositoryFullName: string,
  mintInstallationToken?: MintInstallationToken,
): Promise<RepositoryCredential | undefined> {
  if (connection === null) return undefined;
  if (connection.deletedAt !== null) {
    throw new AppError(
      "PRECONDITION_FAILED",
      "The connection this repository is fetched with was deleted; choose another.",
      {
        reason: "CONNECTION_DELETED",
      },
    );
  }
  const open = (field: CredentialField, value: Uint8Array | null) =>
    openField(keyring, connection, field, value);
  switch (connection.authType) {
    case "NONE":
      return undefined;
    case "BEARER":
    case "HEADER":
      return {
        username: TOKEN_USERNAME,
        password: await open("credentialCiphertext", connection.credentialCiphertext),
      };
    case "OAUTH":
      return {
        username: TOKEN_USERNAME,
        password: await open("oauthAccessTokenCiphertext", connection.oauthAccessTokenCiphertext),
      };
    case "GITHUB_APP": {
      if (mintInstallationToken === undefined) {
        throw new AppError(
          "PRECONDITION_FAILED",
          "GitHub App connections need the worker's token minting; it is not configured.",
          {
            reason: "NO_TOKEN_MINTING",
          },
        );
      }
      const minted = await mintInstallationToken(
        await githubAppInstallation(keyring, connection, repositoryFullName),
      );
      let revoked: Promise<void> | undefined;
      // Once, however many paths reach it (done, failed, finally).
      const revoke = () => (revoked ??= minted.revoke().catch(() => undefined));
      return { username: TOKEN_USERNAME, password: minted.token, revoke };
    }
  }
}

type CredentialField = "credentialCiphertext" | "oauthAccessTokenCiphertext";

function openField(
  keyring: Keyring,
  connection: RepositoryConnection,
  field: CredentialField,
  value: Uint8Array | null,
): Promise<string> {
  if (value === null)
    throw new AppError(
      "PRECONDITION_FAILED",
      "The repository's connection has no credential stored.",
      {
        reason: "NO_CREDENTIAL",
      },
    );
  return decryptField(keyring, value, {
    workspaceId: connection.workspaceId,
    table: "Connection",
    rowId: connection.id,
    field,
  });
}

/**
 * What an installation token for one repository is minted from: the GitHub App connection's
 * ids and API base, and its private key decrypted for this one request. Repository fetches
 * take the minter's default permissions; applying an output names the ones it needs (O03).
 */
export async function githubAppInstallation(
  keyring: Keyring,
  connection: RepositoryConnection,
  repositoryFullName: string,
  permissions?: InstallationTokenRequest["permissions"],
): Promise<InstallationTokenRequest> {
  const { appId, installationId } = appSettings(connection.settings);
  return {
    apiBase: connection.endpoint,
    appId,
    installationId,
    privateKey: await openField(
      keyring,
      connection,
      "credentialCiphertext",
      connection.credentialCiphertext,
    ),
    repositoryName: repositoryFullName.slice(repositoryFullName.lastIndexOf("/") + 1),
    ...(permissions === undefined ? {} : { permissions }),
  };
}

function appSettings(settings: unknown): { appId: string; installationId: string } {
  const { appId, installationId } = (settings ?? {}) as Record<string, unknown>;
  const id = (value: unknown) =>
    (typeof value === "number" && Number.isSafeInteger(value) && value > 0) ||
    (typeof value === "string" && /^[1-9][0-9]{0,18}$/.test(value))
      ? String(value)
      : null;
  const app = id(appId);
  const installation = id(installationId);
  if (app === null || installation === null) {
    throw new AppError(
      "PRECONDITION_FAILED",
      "The GitHub App connection needs a numeric appId and installationId in its settings.",
      { reason: "INVALID_SETTINGS" },
    );
  }
  return { appId: app, installationId: installation };
}

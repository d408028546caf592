// The credential a repository is fetched with comes from the owner's connection, decrypted
// here for one fetch and bound to its row and field (P06). GitHub App installation tokens are
// minted per fetch by the caller (short-lived, scoped to the repository: P03).
import { decryptField, type Keyring } from "@secondshift/crypto";
import type { ConnectionAuth } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { GitCredential } from "./git-env.ts";

export interface RepositoryConnection {
  id: string;
  workspaceId: string;
  authType: ConnectionAuth;
  credentialCiphertext: Uint8Array | null;
  oauthAccessTokenCiphertext: Uint8Array | null;
  deletedAt: Date | null;
}

/** Mints a short-lived token for one fetch (GitHub App installations). */
export type MintInstallationToken = (
  connection: RepositoryConnection,
  repositoryFullName: string,
) => Promise<string>;

/** Hosts such as GitHub accept any user name with a token as the password. */
export const TOKEN_USERNAME = "x-access-token";

export async function repositoryCredential(
  keyring: Keyring,
  connection: RepositoryConnection | null,
  repositoryFullName: string,
  mintInstallationToken?: MintInstallationToken,
): Promise<GitCredential | undefined> {
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
  const open = (
    field: "credentialCiphertext" | "oauthAccessTokenCiphertext",
    value: Uint8Array | null,
  ) => {
    if (value === null)
      throw new AppError(
        "PRECONDITION_FAILED",
        "The repository's connection has no credential stored.",
        { reason: "NO_CREDENTIAL" },
      );
    return decryptField(keyring, value, {
      workspaceId: connection.workspaceId,
      table: "Connection",
      rowId: connection.id,
      field,
    });
  };
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
    case "GITHUB_APP":
      if (mintInstallationToken === undefined) {
        throw new AppError(
          "PRECONDITION_FAILED",
          "GitHub App connections need the worker's token minting; it is not configured.",
          {
            reason: "NO_TOKEN_MINTING",
          },
        );
      }
      return {
        username: TOKEN_USERNAME,
        password: await mintInstallationToken(connection, repositoryFullName),
      };
  }
}

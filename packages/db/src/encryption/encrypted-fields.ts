// Every column that holds a credential ciphertext. Rotation and the tests that scan for
// plaintext use this list; a new secret column must be added here.
export interface EncryptedColumn {
  table: "ModelProvider" | "Connection" | "Repository" | "Webhook" | "RunOutput";
  field: string;
}

export const encryptedColumns: readonly EncryptedColumn[] = [
  { table: "ModelProvider", field: "apiKeyCiphertext" },
  { table: "Connection", field: "credentialCiphertext" },
  { table: "Connection", field: "oauthAccessTokenCiphertext" },
  { table: "Connection", field: "oauthRefreshTokenCiphertext" },
  { table: "Connection", field: "webhookSecretCiphertext" },
  { table: "Repository", field: "webhookSecretCiphertext" },
  { table: "Webhook", field: "urlCiphertext" },
  { table: "Webhook", field: "secretCiphertext" },
  { table: "RunOutput", field: "writeTokenCiphertext" },
];

import { AppError } from "@secondshift/errors";

export type CryptoFailure =
  | "KEY_INVALID"
  | "CIPHERTEXT_MALFORMED"
  | "UNSUPPORTED_VERSION"
  | "UNKNOWN_KEY_ID"
  | "DECRYPTION_FAILED"
  | "KEY_MISMATCH";

/** A failure of encryption at rest. Messages name keys by id only, never by value. */
export class CryptoError extends AppError {
  declare readonly reason: CryptoFailure;

  constructor(reason: CryptoFailure, message: string) {
    super("INTERNAL", message, { reason });
    this.name = "CryptoError";
  }
}

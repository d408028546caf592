// A real argon2id hash of a random password nobody knows, made once per process: sign-in
// verifies against it when the email is unknown, so both paths cost one argon2id verify.
import { randomBytes } from "node:crypto";
import { hashPassword } from "@secondshift/crypto";

let dummyHash: Promise<string> | undefined;

export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummyHash;
}

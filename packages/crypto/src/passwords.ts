// Passwords are stored as argon2id hashes (OWASP parameters: 19 MiB, 2 iterations).
import { hash, verify } from "@node-rs/argon2";

// Algorithm.Argon2id in @node-rs/argon2 (a const enum, which isolated modules cannot import).
const ARGON2ID = 2;

const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

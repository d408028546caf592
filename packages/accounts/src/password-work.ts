// Every argon2id hash and verify of the process goes through one bounded queue. Each takes
// tens of milliseconds of a core and 19 MiB, so unbounded they let anyone who can reach the
// sign-in, setup or invitation forms keep the process busy: at most `concurrency` run at once,
// at most `maxWaiting` wait, and past that a call is refused at once (429), so hostile traffic
// cannot queue hashes for minutes in front of real sign-ins.
import { hashPassword, verifyPassword } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";
import pLimit from "p-limit";

export interface PasswordWork {
  hash(password: string): Promise<string>;
  verify(storedHash: string, password: string): Promise<boolean>;
}

export interface PasswordWorkOptions {
  /** Hashes running at once (default 2: the web process's share of a small machine). */
  concurrency?: number;
  /** Hashes waiting for a turn before new ones are refused (default 16). */
  maxWaiting?: number;
  /** The argon2id functions (tests count or slow the calls). */
  hash?: (password: string) => Promise<string>;
  verify?: (storedHash: string, password: string) => Promise<boolean>;
}

export function createPasswordWork(options: PasswordWorkOptions = {}): PasswordWork {
  const limit = pLimit(options.concurrency ?? 2);
  const maxWaiting = options.maxWaiting ?? 16;
  const hash = options.hash ?? hashPassword;
  const verify = options.verify ?? verifyPassword;
  function queued<T>(work: () => Promise<T>): Promise<T> {
    if (limit.activeCount >= limit.concurrency && limit.pendingCount >= maxWaiting) {
      return Promise.reject(busy());
    }
    return limit(work);
  }
  return {
    hash: (password) => queued(() => hash(password)),
    verify: (storedHash, password) => queued(() => verify(storedHash, password)),
  };
}

function busy(): AppError {
  return new AppError(
    "TOO_MANY_REQUESTS",
    "The server is busy checking passwords. Try again in a few seconds.",
    { reason: "PASSWORD_WORK_BUSY" },
  );
}

// The installation token of an apply attempt, kept encrypted on its output's row while the
// attempt lives (O03): a worker killed mid-attempt never reaches its `finally`, so the next
// attempt finds the token here and revokes it before minting its own. Cleared once revoked.
// Written outside the attempt's transaction, so that it is there after a crash.
import { decryptField, encryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";

export interface WriteTokenStore {
  keep(token: string): Promise<void>;
  clear(): Promise<void>;
  /** A token an earlier attempt left behind, or null. */
  leftover(): Promise<string | null>;
}

export function writeTokenStore(
  db: Db,
  keyring: Keyring,
  output: { id: string; workspaceId: string },
): WriteTokenStore {
  const binding = {
    workspaceId: output.workspaceId,
    table: "RunOutput",
    rowId: output.id,
    field: "writeTokenCiphertext",
  };
  const where = { id: output.id, workspaceId: output.workspaceId };
  const set = (value: Uint8Array<ArrayBuffer> | null) =>
    db.runOutput.updateMany({ where, data: { writeTokenCiphertext: value } }).then(() => undefined);
  return {
    keep: async (token) => set(await encryptField(keyring, token, binding)),
    clear: () => set(null),
    leftover: async () => {
      const row = await db.runOutput.findFirst({ where, select: { writeTokenCiphertext: true } });
      const sealed = row?.writeTokenCiphertext;
      return sealed ? decryptField(keyring, sealed, binding) : null;
    },
  };
}

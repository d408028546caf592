import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, ROLES, type Permission, type Role } from "./roles.ts";

// Written out independently of PERMISSIONS: changing who may do what must change this too (C02).
const EXPECTED: Record<Role, Permission[]> = {
  OWNER: ["read", "operate", "own"],
  ADMIN: ["read", "operate"],
  VIEWER: ["read"],
};

describe("can", () => {
  it.each(ROLES)("[C02] %s has exactly its permissions", (role) => {
    const granted = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => can(role, p));
    expect(granted).toEqual(EXPECTED[role]);
  });

  it("gives no permission to someone without a role (not a member)", () => {
    for (const p of Object.keys(PERMISSIONS) as Permission[]) {
      expect(can(undefined, p)).toBe(false);
      expect(can(null, p)).toBe(false);
    }
  });
});

// Who may do what in a workspace (C02), in one table: the domain's requireRole enforces it on
// every use case, and the web app asks the same table what to offer (`can(role, "operate")`),
// so a screen never shows a control its user would be refused.

/** In the database's order (prisma/schema.prisma's Role; a test in packages/db keeps it so). */
export const ROLES = ["OWNER", "ADMIN", "VIEWER"] as const;

export type Role = (typeof ROLES)[number];

/** The closed set of permissions, and the roles that have each. */
export const PERMISSIONS = {
  /** Every member: jobs, runs, transcripts, connections, members, the audit log. */
  read: ["OWNER", "ADMIN", "VIEWER"],
  /** Run and schedule approved jobs: run now, pause / resume, sync now, cancel, redeliver. */
  operate: ["OWNER", "ADMIN"],
  /** Owners alone: connections, approvals, members, providers, webhook configuration. */
  own: ["OWNER"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether `role` has `permission`; no role (not a member) has none. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

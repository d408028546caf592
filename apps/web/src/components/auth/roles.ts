// Roles in words, for people deciding whom to invite or what they were invited as. Which role
// may do what is the vocabulary's (`can`); the list of roles is its ROLES.
import type { Role } from "@secondshift/vocabulary";

export const ROLE_WORDS: Record<Role, { name: string; does: string }> = {
  OWNER: { name: "Owner", does: "manages connections, access approvals, members and providers" },
  ADMIN: { name: "Admin", does: "runs and schedules approved jobs, but approves no access" },
  VIEWER: { name: "Viewer", does: "reads everything in the workspace and changes nothing" },
};

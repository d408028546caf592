// Roles in words, for people deciding whom to invite or what they were invited as.
export const ROLE_WORDS = {
  OWNER: { name: "Owner", does: "manages connections, access approvals, members and providers" },
  ADMIN: { name: "Admin", does: "runs and schedules approved jobs, but approves no access" },
  VIEWER: { name: "Viewer", does: "reads everything in the workspace and changes nothing" },
} as const;

export type RoleName = keyof typeof ROLE_WORDS;

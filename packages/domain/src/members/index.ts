// Use cases only: the authorization matrix enumerates these exports.
export { createInvitation, listInvitations, revokeInvitation } from "./invitations.ts";
export { listMembers } from "./list.ts";
export { changeMemberRole, removeMember } from "./manage.ts";

import { router } from "../../trpc.ts";
import { changePassword } from "./change-password.ts";
import { invitationsAccept } from "./invitations-accept.ts";
import { invitationsCreate } from "./invitations-create.ts";
import { invitationsList } from "./invitations-list.ts";
import { invitationsPreview } from "./invitations-preview.ts";
import { invitationsRevoke } from "./invitations-revoke.ts";
import { me } from "./me.ts";
import { sessionsList } from "./sessions-list.ts";
import { sessionsRevoke } from "./sessions-revoke.ts";
import { setupStatus } from "./setup-status.ts";
import { setup } from "./setup.ts";
import { signIn } from "./sign-in.ts";
import { signOutEverywhere } from "./sign-out-everywhere.ts";
import { signOut } from "./sign-out.ts";

export const authRouter = router({
  setupStatus,
  setup,
  signIn,
  signOut,
  signOutEverywhere,
  me,
  changePassword,
  sessions: router({ list: sessionsList, revoke: sessionsRevoke }),
  invitations: router({
    list: invitationsList,
    preview: invitationsPreview,
    accept: invitationsAccept,
    create: invitationsCreate,
    revoke: invitationsRevoke,
  }),
});

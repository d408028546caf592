// What /api/oauth/callback reported in the page's address (`?oauth=connected` or
// `?oauth=failed&reason=…`), as a message at the top of the connections pages.
import { StatusNote } from "../ui/status-note.tsx";
import { oauthStatusInWords } from "./words.ts";

export function OAuthStatus({ oauth, reason }: { oauth?: string; reason?: string }) {
  const message = oauthStatusInWords(oauth, reason);
  if (!message) return null;
  return <StatusNote tone={oauth === "connected" ? "good" : "bad"} message={message} />;
}

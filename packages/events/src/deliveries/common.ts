// The parts every delivery shares: which repository, which installation, who sent it, and
// the subject (issue or pull request) object's own fields.
import { name, numericId, object, positive, text, type Loose } from "./shape.ts";
import type { Delivery, SubjectType } from "./types.ts";

export type Envelope = Pick<Delivery, "action" | "repositoryFullName" | "installationId" | "actor">;

/** Thrown inside a parser: the payload lacks a field the intake needs. Caught by parse. */
export class ShapeError extends Error {}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ShapeError(`${what} is missing or not of GitHub's shape`);
  return value;
}

export function envelope(payload: Loose): Envelope {
  const sender = object(payload.sender);
  return {
    action: need(name(payload.action), "action"),
    repositoryFullName: need(name(object(payload.repository)?.full_name), "repository.full_name"),
    installationId: numericId(object(payload.installation)?.id) ?? null,
    actor: {
      login: need(name(sender?.login), "sender.login"),
      isBot: sender?.type === "Bot",
    },
  };
}

export function subject(v: Loose, type: SubjectType): Delivery["subject"] {
  return {
    type,
    number: need(positive(v.number), `${type}.number`),
    title: need(text(v.title), `${type}.title`),
    url: need(name(v.html_url), `${type}.html_url`),
    author: need(name(object(v.user)?.login), `${type}.user.login`),
  };
}

/** The App that wrote an object (issue, comment, pull request), if one did. */
export const viaAppId = (v: Loose): string | null =>
  numericId(object(v.performed_via_github_app)?.id) ?? null;

/** A body GitHub sends as null when empty. */
export const body = (v: unknown): string | null => text(v) ?? null;

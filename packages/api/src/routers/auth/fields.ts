// Field schemas shared by the auth procedures.
import { z } from "zod";

export const email = z.email({ error: "Enter a valid email address." }).max(254);
export const newPassword = z
  .string()
  .min(12, { error: "Use at least 12 characters." })
  .max(512, { error: "Use at most 512 characters." });
/** A password being checked (any length the user typed, within reason). */
export const presentedPassword = z.string().min(1).max(512);
export const personName = z.string().trim().min(1, { error: "Enter a name." }).max(100);
export { role } from "../fields.ts";

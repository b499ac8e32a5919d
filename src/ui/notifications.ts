/**
 * Writing a notification: the bell and the desktop notification (OSC 9 and
 * OSC 777) are the terminal's, and the user's termchat settings say which of
 * them to use. Which messages notify, and when, is decided per account
 * (sync/upkeep/notifications.ts, notifier.ts).
 */
import type { Note } from "../sync/account-handle.js";
import { bell, osc777Notification, osc9Notification } from "../render/terminal.js";

/**
 * The bytes to write for a note, given the user's termchat settings. With
 * several organizations open, `org` names the one the message is in.
 */
export function noteSequence(note: Note, prefs: { bell: boolean; desktop: boolean }, org?: string): string {
  let out = "";
  const title = noteTitle(note, org);
  if (prefs.bell && note.audible) out += bell();
  if (prefs.desktop && note.desktop) out += osc9Notification(title, note.body) + osc777Notification(title, note.body);
  return out;
}

/** A note's title, with its organization's name first when there are several. */
export function noteTitle(note: Note, org?: string): string {
  return org ? `[${org}] ${note.title}` : note.title;
}

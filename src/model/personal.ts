/**
 * Per-user data and organization lists: personal settings, drafts, saved
 * snippets, navigation views, custom emoji, linkifiers.
 */
import type { Draft, Linkifier, NavigationView, RealmEmoji, SavedSnippet } from "../api/schemas/common.js";
import type { EventOfType, KnownEvent } from "../api/schemas/events.js";
import type { RegisterResponse } from "../api/schemas/register.js";

const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export class Personal {
  /** The user's settings as the server names them (`user_settings` in register, kept current by events). */
  readonly settings: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  readonly drafts = new Map<number, Draft>();
  readonly savedSnippets = new Map<number, SavedSnippet>();
  /** By fragment, in the server's order. */
  readonly navigationViews = new Map<string, NavigationView>();
  /** Custom emoji by id (deactivated ones kept: old messages still use them). */
  readonly realmEmoji = new Map<string, RealmEmoji>();
  /** Counts changes to the custom emoji, so renderings that drew them can tell they are stale. */
  emojiGeneration = 0;
  linkifiers: Linkifier[] = [];

  static fromRegister(reg: RegisterResponse): Personal {
    const p = new Personal();
    for (const [k, v] of Object.entries(reg.user_settings ?? {})) p.setSetting(k, v);
    for (const d of reg.drafts ?? []) if (d.id !== undefined) p.drafts.set(d.id, d);
    for (const s of reg.saved_snippets ?? []) p.savedSnippets.set(s.id, s);
    for (const v of reg.navigation_views ?? []) p.navigationViews.set(v.fragment, v);
    for (const [id, e] of Object.entries(reg.realm_emoji ?? {})) p.realmEmoji.set(e.id ?? id, e);
    p.linkifiers = reg.realm_linkifiers ?? [];
    return p;
  }

  setSetting(name: string, value: unknown): boolean {
    if (UNSAFE_KEYS.has(name)) return false;
    this.settings[name] = value;
    return true;
  }

  applyDrafts(e: EventOfType<"drafts">): boolean {
    switch (e.op) {
      case "add":
        for (const d of e.drafts) if (d.id !== undefined) this.drafts.set(d.id, d);
        return e.drafts.length > 0;
      case "update":
        if (e.draft.id === undefined) return false;
        this.drafts.set(e.draft.id, e.draft);
        return true;
      case "remove":
        return this.drafts.delete(e.draft_id);
    }
  }

  applySnippets(e: EventOfType<"saved_snippets">): boolean {
    switch (e.op) {
      case "add":
      case "update":
        this.savedSnippets.set(e.saved_snippet.id, e.saved_snippet);
        return true;
      case "remove":
        return this.savedSnippets.delete(e.saved_snippet_id);
    }
  }

  applyNavigationView(e: Extract<KnownEvent, { type: "navigation_view" | "navigation_views" }>): boolean {
    switch (e.op) {
      case "add":
        this.navigationViews.set(e.navigation_view.fragment, e.navigation_view);
        return true;
      case "update": {
        const v = this.navigationViews.get(e.fragment);
        if (!v) return false;
        if (e.data.is_pinned !== undefined) v.is_pinned = e.data.is_pinned;
        if (e.data.name !== undefined) v.name = e.data.name;
        return true;
      }
      case "remove":
        return this.navigationViews.delete(e.fragment);
    }
  }

  applyRealmEmoji(e: EventOfType<"realm_emoji">): boolean {
    this.emojiGeneration++;
    switch (e.op) {
      case "update":
        this.realmEmoji.clear();
        for (const [id, emoji] of Object.entries(e.realm_emoji)) this.realmEmoji.set(emoji.id ?? id, emoji);
        return true;
      case "add":
        this.realmEmoji.set(e.emoji.id, e.emoji);
        return true;
      case "edit":
      case "update_one": {
        const emoji = this.realmEmoji.get(e.emoji_id);
        if (!emoji) return false;
        if (e.data.deactivated !== undefined) emoji.deactivated = e.data.deactivated;
        if (e.data.name !== undefined) emoji.name = e.data.name;
        return true;
      }
    }
  }

  /** Custom emoji by name (active ones), for rendering `:name:`. */
  emojiByName(name: string): RealmEmoji | undefined {
    for (const e of this.realmEmoji.values()) if (!e.deactivated && e.name === name) return e;
    return undefined;
  }
}

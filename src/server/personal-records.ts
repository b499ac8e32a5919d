// Per-user records the organization state keeps beside its entities: saved
// snippets, push devices, navigation views (with its wire form).

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  dateCreated: number;
}

export interface PushDevice {
  kind: "apns";
  token: string;
  appid: string;
}

/** A view of the user's left sidebar: a built-in one (by its fragment) with its pin, or a custom one with a name. */
export interface NavigationView {
  fragment: string;
  isPinned: boolean;
  /** null for the built-in views: they keep their own name. */
  name: string | null;
}

/** A navigation view as the spec gives it: built-in views carry no name. */
export function navigationViewToWire(v: NavigationView): Record<string, unknown> {
  return v.name === null ? { fragment: v.fragment, is_pinned: v.isPinned } : { fragment: v.fragment, is_pinned: v.isPinned, name: v.name };
}

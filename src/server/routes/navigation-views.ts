// Navigation views, the views a user pins to (or unpins from) the left
// sidebar: GET/POST /navigation_views, PATCH and DELETE
// /navigation_views/{fragment}. A built-in view (Inbox, Recent conversations,
// the combined feed…) is stored only to record its pin and keeps its own
// name; any other fragment is a custom view and needs one. Changes reach the
// user's clients as `navigation_view` events.

import { ApiError, badRequest, missingArgument } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import { navigationViewToWire, type NavigationView } from "../personal-records.js";

/** The fragments of the service's built-in views. */
export const BUILT_IN_VIEWS: ReadonlySet<string> = new Set([
  "inbox",
  "recent",
  "feed",
  "drafts",
  "narrow/has/reaction/sender/me",
  "narrow/is/mentioned",
  "narrow/is/starred",
]);

/** A text parameter with its surrounding space removed; blank is an error when it was sent. */
function nonBlank(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === "") throw badRequest(`${name} cannot be blank`);
  return trimmed;
}

function viewsOf(ctx: RequestContext): NavigationView[] {
  const { state } = ctx.server;
  let views = state.navigationViews.get(ctx.user.id);
  if (!views) state.navigationViews.set(ctx.user.id, (views = []));
  return views;
}

function alreadyExists(): ApiError {
  return badRequest("Navigation view already exists.");
}

function notify(ctx: RequestContext, event: Record<string, unknown>): void {
  sendToUsers(ctx.server, [ctx.user.id], "navigation_view", { type: "navigation_view", ...event });
}

export const navigationViewRoutes: Route[] = [
  {
    method: "GET",
    path: "/navigation_views",
    handler(ctx) {
      return { navigation_views: viewsOf(ctx).map(navigationViewToWire) };
    },
  },
  {
    method: "POST",
    path: "/navigation_views",
    handler(ctx) {
      const { params } = ctx;
      const fragment = nonBlank("fragment", params.reqStr("fragment"))!;
      const isPinned = params.bool("is_pinned");
      if (isPinned === undefined) throw missingArgument("is_pinned");
      const name = nonBlank("name", params.str("name"));
      if (BUILT_IN_VIEWS.has(fragment)) {
        if (name !== undefined) throw badRequest("Built-in views cannot have a custom name.");
      } else if (name === undefined) {
        throw badRequest("Custom views must have a valid name.");
      }
      const views = viewsOf(ctx);
      if (views.some((v) => v.fragment === fragment || (name !== undefined && v.name === name))) throw alreadyExists();
      const view: NavigationView = { fragment, isPinned, name: name ?? null };
      views.push(view);
      notify(ctx, { op: "add", navigation_view: navigationViewToWire(view) });
      return {};
    },
  },
  {
    method: "PATCH",
    path: "/navigation_views/*fragment",
    handler(ctx) {
      const { params } = ctx;
      const fragment = (ctx.path["fragment"] ?? "").trim();
      const isPinned = params.bool("is_pinned");
      const name = nonBlank("name", params.str("name"));
      if (BUILT_IN_VIEWS.has(fragment) && name !== undefined) throw badRequest("Built-in views cannot have a custom name.");
      const views = viewsOf(ctx);
      if (name !== undefined && views.some((v) => v.name === name)) throw alreadyExists();
      const view = views.find((v) => v.fragment === fragment);
      if (!view) throw new ApiError(404, "BAD_REQUEST", "Navigation view does not exist.");
      const data: Record<string, unknown> = {};
      if (name !== undefined) data["name"] = view.name = name;
      if (isPinned !== undefined) data["is_pinned"] = view.isPinned = isPinned;
      notify(ctx, { op: "update", fragment, data });
      return {};
    },
  },
  {
    method: "DELETE",
    path: "/navigation_views/*fragment",
    handler(ctx) {
      const fragment = (ctx.path["fragment"] ?? "").trim();
      const views = viewsOf(ctx);
      const index = views.findIndex((v) => v.fragment === fragment);
      if (index < 0) throw new ApiError(404, "BAD_REQUEST", "Navigation view does not exist.");
      views.splice(index, 1);
      notify(ctx, { op: "remove", fragment });
      return {};
    },
  },
];

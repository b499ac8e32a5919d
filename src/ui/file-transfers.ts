/**
 * What the file popups do with a link or a file: open it (an upload through
 * its temporary address; the browser, or the clipboard where none can
 * appear), copy it, save it with progress in the status line, and upload
 * files into the compose box one after the other.
 */
import { t } from "../render/glyphs.js";
import { sanitizeInline } from "../render/sanitize.js";
import { formatSize, type LocalFile, type Progress } from "../sync/actions/files.js";
import type { ActionContext } from "./app-context.js";
import { clipboardSequence, launchBrowser, planOpen } from "./open-url.js";

type Ctx = Pick<ActionContext, "account" | "store" | "notify" | "writeTerminal" | "dispatch" | "insertIntoCompose" | "latest">;

/** A status-line progress report, at most every `everyMs` and once per percent. */
export function progressReporter(notify: (text: string) => void, what: string, now: () => number = Date.now, everyMs = 250): Progress {
  let last = -Infinity;
  let lastPct = -1;
  return (done, total) => {
    if (total <= 0) return;
    const pct = Math.floor((done / total) * 100);
    if (pct === lastPct || (now() - last < everyMs && pct < 100)) return;
    last = now();
    lastPct = pct;
    notify(`${what} ${pct}% of ${formatSize(total)}`);
  };
}

/** The link made absolute against the organization (what is copied: never a credential in it). */
export function absoluteLink(ctx: Pick<ActionContext, "store">, link: string): string {
  try {
    return new URL(link, ctx.store.realm.url).href;
  } catch {
    return link;
  }
}

export function copyLink(ctx: Ctx, link: string, label: string): void {
  ctx.writeTerminal(clipboardSequence(absoluteLink(ctx, link)));
  ctx.notify(`Copied the link to ${sanitizeInline(label)} (OSC 52 clipboard)`);
}

export async function openLink(ctx: Ctx, link: string, label: string): Promise<void> {
  const addr = await ctx.account.actions.addressToOpen(link);
  if (!addr.ok) return ctx.notify(`Could not open ${sanitizeInline(label)}: ${addr.error.message}`, "error");
  const plan = planOpen(addr.value);
  if (plan.kind === "refuse") return ctx.notify(plan.reason, "error");
  if (plan.kind === "copy") {
    // A temporary address lasts a minute: the lasting link is copied (it asks to log in in the browser).
    ctx.writeTerminal(clipboardSequence(absoluteLink(ctx, link)));
    return ctx.notify(`No browser here (SSH or no display): copied the link to ${sanitizeInline(label)} to the clipboard (OSC 52)`);
  }
  const r = await launchBrowser(plan.launch);
  ctx.notify(r.ok ? `Opened ${sanitizeInline(label)} in the browser` : r.message, r.ok ? "info" : "error");
}

export async function saveWithProgress(ctx: Ctx, link: string, label: string, given?: string): Promise<void> {
  const name = sanitizeInline(label);
  const r = await ctx.account.actions.saveLink(link, given, { onProgress: progressReporter((t) => ctx.notify(t), t`Saving ${name}…`) });
  if (r.ok) ctx.notify(`Saved ${name} to ${sanitizeInline(r.value.path)} (${formatSize(r.value.bytes)})`);
  else ctx.notify(`Could not save ${name}: ${r.error.message}`, "error");
}

/**
 * Uploads the files in turn; each link goes in at the compose box's cursor
 * as it arrives (when the box is still open on `draftKey`). A failure stops
 * there, keeps the text, and says why in the box.
 */
export async function uploadIntoCompose(ctx: Ctx, files: LocalFile[], draftKey: string): Promise<void> {
  const links: string[] = [];
  for (const [i, file] of files.entries()) {
    const name = sanitizeInline(file.name);
    const what = files.length > 1 ? t`Uploading ${name} (${i + 1} of ${files.length})…` : t`Uploading ${name}…`;
    ctx.notify(what);
    const r = await ctx.account.actions.uploadLocalFile(file, { onProgress: progressReporter((t) => ctx.notify(t), what) });
    if (!r.ok) {
      const error = t`Upload of ${name} failed: ${r.error.message} — your text is kept`;
      if (ctx.latest().compose?.key === draftKey) ctx.dispatch({ type: "composeError", error });
      ctx.notify(error, "error");
      return;
    }
    const text = `${r.value.markdown}${i + 1 < files.length ? "\n" : " "}`;
    if (ctx.insertIntoCompose?.(text, draftKey)) links.push(r.value.url);
    else ctx.notify(`Uploaded ${name}, but the compose box was closed: its link is ${sanitizeInline(r.value.url)}`);
  }
  if (links.length) ctx.notify(links.length === 1 ? `Uploaded ${sanitizeInline(files[0]!.name)}` : `Uploaded ${links.length} files`);
}

/**
 * The one visual language of lists and the message pane, explained in the help's legend: a
 * gutter cell before each row holds the mark of the row under the cursor (`selected`), of the
 * view or conversation shown (`open`, in the sidebar), or of an unread message (`unread`).
 * The cursor's row is also inverse while its list has the keys; elsewhere its mark is dim.
 */
import { Text } from "ink";
import { glyphs } from "../../render/glyphs.js";
import { useTheme } from "../theme.js";

export type MarkKind = "selected" | "open" | "unread" | "none";

export function RowMark({ kind, focused = true, inverse = false }: { kind: MarkKind; focused?: boolean; inverse?: boolean }) {
  const theme = useTheme();
  if (kind === "none") return <Text> </Text>;
  // On an inverse row a coloured mark would turn into a coloured background: it keeps the row's colours.
  const color = inverse ? undefined : kind === "selected" ? theme.selection : kind === "open" ? theme.accent : theme.unread;
  return (
    <Text color={color} dimColor={kind === "selected" && !focused} bold={kind !== "unread"}>
      {glyphs()[kind]}
    </Text>
  );
}

/** The legend of the marks, for the help screen: each glyph of the current set and what it means. */
export function markLegend(): Array<[marks: string, meaning: string]> {
  const g = glyphs();
  return [
    [g.selected, "the row or message under the cursor (dim when its list does not have the keys)"],
    [g.open, "the view or conversation shown (sidebar)"],
    [g.unread, "an unread message"],
    [`${g.collapsed} ${g.expanded}`, "a folder or channel folded, unfolded (Enter)"],
    [`${g.view} ${g.public}`, "a view, a channel"],
    [`${g.private} ${g.webPublic} ${g.archived}`, "a private, web-public, archived channel"],
    [g.resolved, "a resolved topic"],
    [g.star, "a followed topic, a starred message"],
    [g.muted, "a muted topic"],
    [`${g.active} ${g.idle} ${g.offline}`, "active, idle, offline"],
  ];
}

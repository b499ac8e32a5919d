// Contrast of every theme colour against black and white backgrounds (WCAG 2 ratios), in 24-bit,
// 256 and 16 colours, and of the demo's channel colours as the themes show them. Figures only.
import { THEMES } from "../src/config/settings.js";
import { SUBSCRIPTION_COLORS } from "../src/server/seed/common.js";
import { BLACK, contrast, WHITE, type Rgb } from "../src/ui/contrast.js";
import { colorRgb, resolveTheme, themeContrasts, ROLES, type ColorLevel } from "../src/ui/theme.js";

const backgrounds: Array<[string, Rgb]> = [
  ["black", BLACK],
  ["white", WHITE],
];
const levels: Array<[ColorLevel, string]> = [
  [3, "24-bit"],
  [2, "256"],
  [1, "16"],
];
const fmt = (n: number | undefined) => (n === undefined ? "  fg " : n.toFixed(1).padStart(5));

console.log(`  ${"role".padEnd(12)}${THEMES.flatMap((t) => backgrounds.map(([b]) => `${t}/${b}`.padStart(12))).join("")}   (24-bit; "fg": the terminal's own foreground)`);
for (const role of ROLES) {
  const cells = THEMES.flatMap((t) =>
    backgrounds.map(([, bg]) => {
      const r = themeContrasts(resolveTheme(t, bg, 3)).find((x) => x.role === role)!;
      return fmt(r.ratio).padStart(12);
    }),
  );
  console.log(`  ${role.padEnd(12)}${cells.join("")}`);
}
console.log("\n  lowest ratio of any role (text needs 4.5, marks 3):");
for (const t of THEMES) {
  for (const [bgName, bg] of backgrounds) {
    const parts = levels.map(([level, label]) => {
      const rows = themeContrasts(resolveTheme(t, bg, level));
      const rated = rows.filter((r) => r.ratio !== undefined);
      const min = Math.min(...rated.map((r) => r.ratio!));
      return `${label}: ${min.toFixed(2)} (${rows.length - rated.length} on fg)`;
    });
    console.log(`  ${`${t} on ${bgName}`.padEnd(16)}${parts.join("   ")}`);
  }
}
console.log("\n  the demo's channel colours (and #ffffff, #000000, #ffff00), lowest ratio as text / as marks:");
const channels = [...SUBSCRIPTION_COLORS, "#ffffff", "#000000", "#ffff00"];
for (const [bgName, bg] of backgrounds) {
  const raw = Math.min(...channels.map((c) => contrast(colorRgb(c)!, bg)));
  const parts = levels.map(([level, label]) => {
    const theme = resolveTheme(bgName === "white" ? "light" : "dark", bg, level);
    const ratio = (use: "text" | "mark") => Math.min(...channels.map((c) => contrast(colorRgb(theme.channel(c, use)) ?? (bgName === "white" ? BLACK : WHITE), bg)));
    return `${label}: ${ratio("text").toFixed(2)} / ${ratio("mark").toFixed(2)}`;
  });
  console.log(`  on ${bgName.padEnd(6)} as sent: ${raw.toFixed(2)}   shown: ${parts.join("   ")}`);
}

/** The compose box's own keys (its editing keys are in compose-editor.ts). */
import type { Feature } from "../app-context.js";

export const composeFeature: Feature = {
  name: "compose",
  bindings: [
    { action: "send", keys: ["enter"], context: "compose", help: "Send" },
    { action: "newline", keys: ["C-j", "M-enter", "S-enter"], context: "compose", help: "New line" },
    { action: "cancel", keys: ["escape"], context: "compose", help: "Close the compose box (the text is kept as a draft)" },
  ],
  // Handled by the compose box itself (App), listed here for the keymap and the help screen.
  actions: {},
};

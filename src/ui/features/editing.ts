/**
 * Text editing keys, shared by the compose box and the one-line prompts
 * (search, commands, forms). The compose box falls through to these.
 */
import type { Feature } from "../app-context.js";

export const editingFeature: Feature = {
  name: "editing",
  bindings: [
    { action: "edit.backspace", keys: ["backspace", "C-h"], context: "edit", help: "Erase the character before the cursor" },
    { action: "edit.delete", keys: ["delete", "C-d"], context: "edit", help: "Erase the character under the cursor" },
    { action: "edit.left", keys: ["left", "C-b"], context: "edit", help: "Cursor left" },
    { action: "edit.right", keys: ["right", "C-f"], context: "edit", help: "Cursor right" },
    { action: "edit.home", keys: ["home", "C-a"], context: "edit", help: "Start of the line" },
    { action: "edit.end", keys: ["end", "C-e"], context: "edit", help: "End of the line" },
    { action: "edit.deleteWordBack", keys: ["C-w", "M-backspace"], context: "edit", help: "Erase the word before the cursor" },
    { action: "edit.killLine", keys: ["C-k"], context: "edit", help: "Erase to the end of the line" },
    { action: "edit.killToStart", keys: ["C-u"], context: "edit", help: "Erase to the start of the line" },
  ],
  actions: {},
};

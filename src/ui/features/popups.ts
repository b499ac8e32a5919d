/**
 * The popups' own keys. A popup takes every key while it is open and looks
 * them up in its scope here, so the help screen lists them and settings can
 * rebind them like any other action.
 */
import type { Feature } from "../app-context.js";

export const popupsFeature: Feature = {
  name: "popups",
  bindings: [
    { action: "confirm.yes", keys: ["y", "Y", "enter"], context: "popup.confirm", help: "Confirm (delete, deactivate…)" },
    { action: "confirm.no", keys: ["n", "N", "escape", "q"], context: "popup.confirm", help: "Cancel" },
    { action: "emoji.choose", keys: ["enter"], context: "popup.emoji", help: "React with the chosen emoji" },
    { action: "emoji.close", keys: ["escape"], context: "popup.emoji", help: "Close" },
    { action: "emoji.down", keys: ["down"], context: "popup.emoji", help: "Move down" },
    { action: "emoji.up", keys: ["up"], context: "popup.emoji", help: "Move up" },
    { action: "emoji.right", keys: ["right"], context: "popup.emoji", help: "Move right" },
    { action: "emoji.left", keys: ["left"], context: "popup.emoji", help: "Move left" },
    { action: "emoji.listMode", keys: ["tab"], context: "popup.emoji", help: "Switch between typing a name and moving with h/j/k/l" },
    { action: "emoji.erase", keys: ["backspace"], context: "popup.emoji", help: "Erase a character of the name" },
    { action: "emoji.clear", keys: ["C-u"], context: "popup.emoji", help: "Clear the name" },
    { action: "emoji.listDown", keys: ["j"], context: "popup.emoji.list", help: "Move down" },
    { action: "emoji.listUp", keys: ["k"], context: "popup.emoji.list", help: "Move up" },
    { action: "emoji.listRight", keys: ["l"], context: "popup.emoji.list", help: "Move right" },
    { action: "emoji.listLeft", keys: ["h"], context: "popup.emoji.list", help: "Move left" },
    { action: "emoji.search", keys: ["/"], context: "popup.emoji.list", help: "Back to typing a name" },
    { action: "help.close", keys: ["escape", "?", "q"], context: "popup.help", help: "Close" },
    { action: "help.down", keys: ["j", "down"], context: "popup.help", help: "Scroll down" },
    { action: "help.up", keys: ["k", "up"], context: "popup.help", help: "Scroll up" },
    { action: "help.pageDown", keys: ["J", "pagedown", " "], context: "popup.help", help: "Page down" },
    { action: "help.pageUp", keys: ["K", "pageup"], context: "popup.help", help: "Page up" },
    { action: "help.top", keys: ["g", "home"], context: "popup.help", help: "Top" },
    { action: "help.bottom", keys: ["G", "end"], context: "popup.help", help: "Bottom" },
  ],
  actions: {},
};

/**
 * The keys of the sidebar's filter line:
 * looked up in their own scopes like every other key, so the help screen
 * lists them and settings can rebind them.
 */
import type { Feature } from "../app-context.js";

export const promptsFeature: Feature = {
  name: "prompts",
  bindings: [
    { action: "sidebarFilter.close", keys: ["escape"], context: "sidebar.filter", help: "Stop filtering, the cursor staying on its row" },
    { action: "sidebarFilter.open", keys: ["enter"], context: "sidebar.filter", help: "Open the row and stop filtering" },
    { action: "sidebarFilter.erase", keys: ["backspace"], context: "sidebar.filter", help: "Erase a character (with nothing typed: stop filtering)" },
    { action: "sidebarFilter.clear", keys: ["C-u"], context: "sidebar.filter", help: "Clear the filter" },
    { action: "sidebarFilter.up", keys: ["up", "C-p"], context: "sidebar.filter", help: "Move up" },
    { action: "sidebarFilter.down", keys: ["down", "C-n"], context: "sidebar.filter", help: "Move down" },
  ],
  actions: {},
};

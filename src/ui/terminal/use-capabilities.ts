/** The terminal's record (capabilities.ts) for a component: it renders again when an answer changes it. */
import { useSyncExternalStore } from "react";
import { onTerminalCapabilities, terminalCapabilities, type TerminalCapabilities } from "./capabilities.js";

export function useTerminalCapabilities(): TerminalCapabilities {
  return useSyncExternalStore(onTerminalCapabilities, terminalCapabilities);
}

/**
 * Asks the terminal how it draws images, before the app reads the keyboard;
 * nothing is asked when previews are off. Small on purpose: the start runs it
 * while the UI's modules load, so the terminal's answer costs no time of its own.
 */
import type { Settings } from "../../config/settings.js";
import { detectTerminalGraphics } from "./detect.js";
import { setTerminalGraphics, terminalGraphics } from "./graphics.js";

export async function prepareImages(settings: Settings): Promise<void> {
  if (!settings.imagePreviews) return setTerminalGraphics({ ...terminalGraphics(), mode: "off" });
  setTerminalGraphics(await detectTerminalGraphics(process.stdin, process.stdout, process.env));
}

import type { Plugin } from "esbuild";
export const PATCHED_FOR: Record<string, string>;
export function installedVersion(name: string): string | undefined;
export function versionMismatches(): string[];
export const inkFramePlugin: Plugin;
export function inkFrame(options?: { frameWriter?: boolean }): Plugin;

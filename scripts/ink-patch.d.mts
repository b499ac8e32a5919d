import type { Plugin as EsbuildPlugin } from "esbuild";
import type { Plugin as VitePlugin } from "vite";
export const PATCHED_FOR: Record<string, string>;
export const THROUGH_THE_PATCH: string[];
export interface Swap {
  name: string;
  specifier: string;
  importer: RegExp;
  to: string;
  frameWriter?: boolean;
}
export interface Edit {
  name: string;
  file: RegExp;
  prepend?: string;
  replace: Array<[string, string]>;
}
export const SWAPS: Swap[];
export const EDITS: Edit[];
export function installedVersion(name: string): string | undefined;
export function versionSeenFrom(dir: string, name: string): string | undefined;
export function versionMismatches(): string[];
export function applyEdit(edit: Edit, source: string): { code?: string; problem?: string };
export function expectedChanges(files: string[], frameWriter?: boolean): string[];
export function inkPatchEsbuild(options?: { frameWriter?: boolean }): EsbuildPlugin;
export function inkPatchVite(): VitePlugin;
export const APPLIED_MODULE: string;

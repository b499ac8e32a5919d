interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}
export function bundledPackageDirs(metafile: Metafile, cwd?: string): string[];
export function thirdPartyLicenses(metafile: Metafile, cwd?: string): string;

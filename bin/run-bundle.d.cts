export declare function codeCacheName(bundle: string, source: string, kind: string, flags: readonly string[], part?: string): { prefix: string; name: string };
export type PartCache = "none" | "used" | "missing" | "not loaded";
export declare function runBundle(
  bundle: string,
  options?: { cacheDir?: string; kind?: string; flags?: readonly string[] },
): {
  exports: Record<string, unknown>;
  cache: "none" | "used" | "missing";
  laterCache: () => PartCache;
  rareCache: () => PartCache;
  keepCompiledCode: () => void;
};

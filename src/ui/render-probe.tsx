/**
 * Counting renders, for tests and measurements: a component that calls
 * `useRenderProbe(name)` tells the probe given by `RenderProbe.Provider` each
 * time it renders. Without a probe it does nothing.
 */
import { createContext, useContext } from "react";

export const RenderProbe = createContext<((name: string) => void) | undefined>(undefined);

export function useRenderProbe(name: string): void {
  useContext(RenderProbe)?.(name);
}

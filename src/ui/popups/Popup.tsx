/** A bordered box drawn over the main area, with a title and a key hint (what does not fit beside the title goes on in the bottom border). */
import type { ReactNode } from "react";
import { Framed } from "../components/Framed.js";
import { useTheme } from "../theme.js";

export function Popup({ title, hint, width, height, children }: { title: string; hint?: string; width: number; height: number; children: ReactNode }) {
  const theme = useTheme();
  return (
    <Framed title={title} titleBold hint={hint} width={width} height={height} border="box" borderColor={theme.accent} paddingX={1}>
      {children}
    </Framed>
  );
}

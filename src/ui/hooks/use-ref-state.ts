import { useRef, useState } from "react";

/**
 * State read through a ref: a handler sees what the previous key set even
 * before a re-render (several keys arriving in one read).
 */
export function useRefState<T>(initial: T): [() => T, (v: T | ((old: T) => T)) => void] {
  const ref = useRef(initial);
  const [, setTick] = useState(0);
  return [
    () => ref.current,
    (v) => {
      ref.current = typeof v === "function" ? (v as (old: T) => T)(ref.current) : v;
      setTick((t) => t + 1);
    },
  ];
}

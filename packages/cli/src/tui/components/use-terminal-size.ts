import { useStdout } from "ink";
import { useEffect, useRef, useState } from "react";

/** The terminal's size, and how many times it changed (0 until the first resize). */
export interface TerminalSize {
  columns: number;
  rows: number;
  resizes: number;
}

/** For output that is not a terminal (tests, pipes): large enough to cap nothing. */
const FALLBACK_COLUMNS = 100;
const FALLBACK_ROWS = 1000;

/**
 * The terminal's size, re-rendering on each resize. `onResize` runs first, synchronously, before
 * the components re-render at the new size (to clear what the terminal reflowed).
 */
export function useTerminalSize(onResize?: () => void): TerminalSize {
  const { stdout } = useStdout();
  const onResizeRef = useRef(onResize);
  onResizeRef.current = onResize;
  const [size, setSize] = useState(() => sizeOf(stdout, 0));
  useEffect(() => {
    const resized = (): void => {
      onResizeRef.current?.();
      setSize((previous) => sizeOf(stdout, previous.resizes + 1));
    };
    stdout.on("resize", resized);
    return () => {
      stdout.off("resize", resized);
    };
  }, [stdout]);
  return size;
}

function sizeOf(stdout: NodeJS.WriteStream, resizes: number): TerminalSize {
  return { columns: stdout.columns || FALLBACK_COLUMNS, rows: stdout.rows || FALLBACK_ROWS, resizes };
}

import { type Key, useInput } from "ink";
import { createContext, type ReactNode, type RefObject, useContext, useRef } from "react";

/** What a component does with a key. */
export type KeyHandler = (input: string, key: Key) => void;

const KeyTarget = createContext<RefObject<KeyHandler | undefined> | undefined>(undefined);

/**
 * One subscription to the keyboard for the whole UI, handing each key to the component that
 * claimed it. ink subscribes a component's own `useInput` in an effect, after its first frame is
 * on screen: a key typed in that instant (the "y" for a permission prompt that just appeared,
 * typed ahead or sent by a script) would be lost. A claim made while rendering is in place first.
 */
export function KeyRouter({ children }: { children: ReactNode }) {
  const target = useRef<KeyHandler | undefined>(undefined);
  useInput((input, key) => target.current?.(input, key));
  return <KeyTarget.Provider value={target}>{children}</KeyTarget.Provider>;
}

/** Claims the keys while `active`: the last active component rendered gets them. */
export function useKeys(handler: KeyHandler, active: boolean): void {
  const target = useContext(KeyTarget);
  if (target === undefined) throw new Error("useKeys needs a KeyRouter around the UI");
  // Assigned while rendering, on purpose: see KeyRouter.
  if (active) target.current = handler;
}

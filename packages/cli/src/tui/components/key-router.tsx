import { type Key, useStdin } from "ink";
import { createContext, type ReactNode, type RefObject, useContext, useEffect, useRef } from "react";
import { KeyStream } from "../input/key-stream.js";

/** What a component does with a key. */
export type KeyHandler = (input: string, key: Key) => void;
/** What a component does with pasted text; without one, a paste is dropped. */
export type PasteHandler = (text: string) => void;

interface KeyClaim {
  onKey: KeyHandler;
  onPaste?: PasteHandler;
}

const KeyTarget = createContext<RefObject<KeyClaim | undefined> | undefined>(undefined);

/**
 * One subscription to the keyboard for the whole UI, handing each key to the component that
 * claimed it. ink subscribes a component's own `useInput` in an effect, after its first frame is
 * on screen: a key typed in that instant (the "y" for a permission prompt that just appeared,
 * typed ahead or sent by a script) would be lost. A claim made while rendering is in place first.
 *
 * It reads ink's raw input events, not `useInput`: that hands a run of keys from one read on as
 * one string (so Backspace, Ctrl+U, Ctrl+W in it were lost or typed as raw bytes), knows no
 * paste, and throws on some sequences a paste can hold. `KeyStream` reads them key by key.
 */
export function KeyRouter({ children }: { children: ReactNode }) {
  const target = useRef<KeyClaim | undefined>(undefined);
  const { internal_eventEmitter: events, setRawMode, isRawModeSupported } = useStdin();

  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [isRawModeSupported, setRawMode]);

  useEffect(() => {
    const stream = new KeyStream();
    const onInput = (raw: string): void => {
      for (const input of stream.read(raw)) {
        const claim = target.current;
        if (input.type === "paste") claim?.onPaste?.(input.text);
        else claim?.onKey(input.press.input, input.press.key);
      }
    };
    events.on("input", onInput);
    return () => {
      events.removeListener("input", onInput);
    };
  }, [events]);

  return <KeyTarget.Provider value={target}>{children}</KeyTarget.Provider>;
}

/** Claims the keys (and pastes) while `active`: the last active component rendered gets them. */
export function useKeys(handler: KeyHandler, active: boolean, onPaste?: PasteHandler): void {
  const target = useContext(KeyTarget);
  if (target === undefined) throw new Error("useKeys needs a KeyRouter around the UI");
  // Assigned while rendering, on purpose: see KeyRouter.
  if (active) target.current = onPaste === undefined ? { onKey: handler } : { onKey: handler, onPaste };
}

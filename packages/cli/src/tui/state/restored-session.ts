import type { Usage } from "@yoake/llm-worker";
import type { ModelPrices } from "@yoake/pod";
import type { UiAction } from "./ui-action.js";

/** What a continued or resumed session tells the UI about how it had left off. */
export interface RestoredSessionView {
  readonly lastRun?: { readonly state: string; readonly message?: string };
  /** Tokens of every model request the session made so far. */
  readonly usage?: Usage;
}

/**
 * The actions that show a session opened from its log as it was: its token counts (the status
 * line starts from them, not from zero, and not from the session shown before a `/resume`), and a
 * last run that failed, with its error, which history (items only) does not hold.
 */
export function restoredSessionActions(
  restored: RestoredSessionView | undefined,
  prices: ModelPrices | undefined,
): UiAction[] {
  const actions: UiAction[] = [
    { type: "usage_restored", usage: restored?.usage ?? {}, ...(prices !== undefined && { prices }) },
  ];
  const lastRun = restored?.lastRun;
  if (lastRun?.state === "failed")
    actions.push({
      type: "notice",
      tone: "error",
      text: `The last run of this session failed${lastRun.message === undefined ? "." : `: ${lastRun.message}`}`,
    });
  return actions;
}

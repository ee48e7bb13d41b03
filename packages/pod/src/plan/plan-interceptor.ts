import { type Interceptor, systemMessage } from "@yoake/llm-worker";
import { type PlanBook, planIsOpen, planNote } from "./plan.js";

/**
 * Shows the model the open plan right after each new prompt, as a system note that enters
 * history (and so the session log). Why there and not in every request: a note in the system
 * prompt or at the tail of each request would change bytes before or inside the cached prefix on
 * every turn, so the provider would re-read the whole conversation each time. A note that enters
 * history once per prompt is part of the prefix from then on; within a run the model sees each
 * new version of the plan as the result of its own `todo_write` call.
 */
export function planInterceptor(book: PlanBook): Interceptor {
  return {
    name: "plan",
    onPromptSubmit: ({ items }) => {
      // A run continued without new input (`resume` after a restore) has no prompt to follow.
      if (items.length === 0) return undefined;
      const plan = book.current;
      return planIsOpen(plan)
        ? { action: "continue_with", items: [systemMessage(planNote(plan))] }
        : undefined;
    },
  };
}

import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import { formatPlan, type PlanBook, planItemSchema } from "./plan.js";

/** The name the model calls the plan tool by. */
export const TODO_WRITE_TOOL = "todo_write";

const input = z.object({
  goal: z
    .string()
    .optional()
    .describe("What the whole plan achieves, in one sentence; left out, the previous goal stays."),
  items: z
    .array(planItemSchema)
    .describe("The whole list, in order, every call: each step's text and status."),
});

/**
 * `todo_write`: the model writes its whole plan (goal and steps with status pending / in_progress
 * / done) into `book`, which logs it and shows it. The result repeats the plan as kept, so the
 * model sees when a done step was held at done.
 */
export function createTodoWriteTool(book: PlanBook): Tool {
  return tool({
    name: TODO_WRITE_TOOL,
    description:
      "Write your plan for a task of several steps: the whole list each call, each step pending, in_progress or done. " +
      "Keep one step in_progress, mark steps done as soon as they are, and keep the goal. The plan is shown to the user " +
      "and kept across compaction; steps marked done stay done.",
    input,
    execute: (args) => {
      const { plan, keptDone } = book.write({
        ...(args.goal !== undefined && { goal: args.goal }),
        items: args.items,
      });
      const kept =
        keptDone.length === 0
          ? ""
          : `\n(kept as done, since they were finished already: ${keptDone.map((c) => JSON.stringify(c)).join(", ")})`;
      return `Plan saved.\n${formatPlan(plan)}${kept}`;
    },
  });
}

import { z } from "zod";

/** Where an item of the plan stands. */
export const planStatusSchema = z.enum(["pending", "in_progress", "done"]);
export type PlanStatus = z.infer<typeof planStatusSchema>;

export const planItemSchema = z.object({
  content: z.string().trim().min(1, "an item needs its text"),
  status: planStatusSchema,
});
export type PlanItem = z.infer<typeof planItemSchema>;

/**
 * The model's plan (`todo_write`): the goal it works towards and its steps, in order. Written
 * whole each time; the session log keeps every version (`plan` entries), the latest is the plan.
 */
export const planSchema = z.object({
  goal: z.string().optional(),
  items: z.array(planItemSchema),
});
export type Plan = z.infer<typeof planSchema>;

type PlanListener = (plan: Plan) => void;

/**
 * The plan of one Pod: the latest list, and who is told of each new one (the session log, the
 * event hub). Two rules keep a plan from going backwards, which matters most after a compaction,
 * when the model rewrites the list from a summary:
 * - a step that is done stays done: a new list that names it again as pending or in progress gets
 *   it back as done (`write` reports which);
 * - a list without a goal keeps the goal the plan had.
 */
export class PlanBook {
  #plan: Plan | undefined;
  readonly #listeners: PlanListener[] = [];

  constructor(initial?: Plan) {
    this.#plan = initial;
  }

  /** The latest plan, if the model wrote one. */
  get current(): Plan | undefined {
    return this.#plan;
  }

  /** Called with each plan `write` accepts, after it became current. */
  onChange(listener: PlanListener): void {
    this.#listeners.push(listener);
  }

  /** Replaces the plan; returns it as kept, and the steps that were held at done. */
  write(next: Plan): { plan: Plan; keptDone: string[] } {
    const done = new Set(
      (this.#plan?.items ?? []).filter((item) => item.status === "done").map((item) => item.content),
    );
    const keptDone: string[] = [];
    const items = next.items.map((item) => {
      if (item.status === "done" || !done.has(item.content)) return { ...item };
      keptDone.push(item.content);
      return { content: item.content, status: "done" as const };
    });
    const goal = next.goal ?? this.#plan?.goal;
    const plan: Plan = { ...(goal !== undefined && goal !== "" && { goal }), items };
    this.#plan = plan;
    for (const listener of this.#listeners) listener(plan);
    return { plan, keptDone };
  }
}

const MARK: Record<PlanStatus, string> = { pending: "[ ]", in_progress: "[~]", done: "[x]" };

/** The plan as the model (and a plain terminal) reads it: the goal, then one line per step. */
export function formatPlan(plan: Plan): string {
  const lines = plan.goal === undefined ? [] : [`Goal: ${plan.goal}`];
  for (const item of plan.items) lines.push(`${MARK[item.status]} ${item.content}`);
  if (plan.items.length === 0) lines.push("(no steps)");
  return lines.join("\n");
}

/** Whether any step is still to do: a finished plan is not worth repeating to the model. */
export function planIsOpen(plan: Plan | undefined): plan is Plan {
  return plan?.items.some((item) => item.status !== "done") === true;
}

/** The note the model gets beside a new prompt and at the head of a compacted session. */
export function planNote(plan: Plan): string {
  return `The current plan (update it with todo_write as steps are done; done steps stay done):\n${formatPlan(plan)}`;
}

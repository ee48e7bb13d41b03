import type { Hook, Interceptor } from "./hooks.js";

/** A hook, interceptor or event handler threw: the run fails, naming it. */
export class HookError extends Error {
  constructor(
    readonly hook: string,
    readonly stage: string,
    cause: unknown,
  ) {
    super(`${hook} failed in ${stage}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "HookError";
  }
}

/** One step of a stage: an interceptor's or a hook's method, bound to what it should see. */
export interface HookStep<A> {
  name: string;
  run: () => A | undefined | Promise<A | undefined>;
}

/**
 * Asks each step in order (interceptors first, then hooks) and returns the first action that is not
 * a plain continue, with the index of the step that gave it. Steps up to `skipThrough` are not asked
 * (they already answered before a pause that `resume()` has now lifted).
 */
export async function firstAction<A extends { action: string }>(
  stage: string,
  steps: readonly HookStep<A>[],
  options: { passThrough?: (action: A) => boolean; skipThrough?: number } = {},
): Promise<{ action: A; by: string; step: number } | undefined> {
  for (let i = (options.skipThrough ?? -1) + 1; i < steps.length; i++) {
    const step = steps[i] as HookStep<A>;
    let action: A | undefined;
    try {
      action = await step.run();
    } catch (err) {
      throw new HookError(step.name, stage, err);
    }
    if (action === undefined || action.action === "continue") continue;
    if (options.passThrough?.(action)) continue;
    return { action, by: step.name, step: i };
  }
  return undefined;
}

export function nameOf(extension: Interceptor | Hook, tier: "interceptor" | "hook", index: number): string {
  if (extension.name) return extension.name;
  const ctor = (extension as object).constructor?.name;
  return ctor && ctor !== "Object" ? ctor : `${tier} #${index + 1}`;
}

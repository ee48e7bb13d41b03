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
 * neutral, with the index of the step that gave it. Neutral is `continue` unless `neutral` says
 * otherwise (at turn end `continue` carries messages and `finish` is the neutral answer). Steps up
 * to `skipThrough` are not asked (they already answered before a pause that `resume()` has now lifted).
 */
export async function firstAction<A extends { action: string }>(
  stage: string,
  steps: readonly HookStep<A>[],
  options: {
    passThrough?: (action: A) => boolean;
    skipThrough?: number;
    neutral?: (action: A) => boolean;
  } = {},
): Promise<{ action: A; by: string; step: number } | undefined> {
  for (let i = (options.skipThrough ?? -1) + 1; i < steps.length; i++) {
    const step = steps[i] as HookStep<A>;
    let action: A | undefined;
    try {
      action = await step.run();
    } catch (err) {
      throw new HookError(step.name, stage, err);
    }
    if (action === undefined) continue;
    if (options.neutral ? options.neutral(action) : action.action === "continue") continue;
    if (options.passThrough?.(action)) continue;
    return { action, by: step.name, step: i };
  }
  return undefined;
}

/** A Worker's interceptors and hooks, with the names errors and results give them. */
export interface Extensions {
  readonly interceptors: readonly Interceptor[];
  readonly hooks: readonly Hook[];
  readonly names: { readonly interceptors: readonly string[]; readonly hooks: readonly string[] };
}

export function extensionsOf(interceptors: readonly Interceptor[], hooks: readonly Hook[]): Extensions {
  return {
    interceptors,
    hooks,
    names: {
      interceptors: interceptors.map((x, i) => nameOf(x, "interceptor", i)),
      hooks: hooks.map((x, i) => nameOf(x, "hook", i)),
    },
  };
}

type Ask<X, A> = (extension: X) => A | undefined | Promise<A | undefined>;

/**
 * The steps of one stage: every interceptor that implements `method`, then every hook that does,
 * each asked through `interceptor` / `hook` (which give it what its tier may see).
 */
export function stepsOf<A>(
  extensions: Extensions,
  method: Exclude<keyof Hook & keyof Interceptor, "name">,
  interceptor: Ask<Interceptor, A>,
  hook: Ask<Hook, A>,
): HookStep<A>[] {
  const steps: HookStep<A>[] = [];
  const { interceptors, hooks, names } = extensions;
  for (let i = 0; i < interceptors.length; i++) {
    const x = interceptors[i] as Interceptor;
    if (x[method]) steps.push({ name: names.interceptors[i] as string, run: () => interceptor(x) });
  }
  for (let i = 0; i < hooks.length; i++) {
    const x = hooks[i] as Hook;
    if (x[method]) steps.push({ name: names.hooks[i] as string, run: () => hook(x) });
  }
  return steps;
}

function nameOf(extension: Interceptor | Hook, tier: "interceptor" | "hook", index: number): string {
  if (extension.name) return extension.name;
  const ctor = (extension as object).constructor?.name;
  return ctor && ctor !== "Object" ? ctor : `${tier} #${index + 1}`;
}

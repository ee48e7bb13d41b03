import { catalogue } from "../manifest/catalogue.js";

/** What every command gets from the Pod's environment, whatever the manifest says. */
export const BASE_ENV_NAMES = ["PATH", "HOME", "LANG", "TERM"] as const;

/** Used when the Pod's own environment has no PATH. */
const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * The environment of a command: PATH, HOME, LANG and TERM, plus the names the manifest lists
 * (`[shell] env`), from `source`; nothing else. Provider keys never pass, even when named: the
 * catalogue's key variables and the model's own (`keyEnv`). Returns the names refused too, for a
 * warning.
 */
export function commandEnv(
  source: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[],
  keyEnv: string | undefined,
): { env: Record<string, string>; refused: string[] } {
  const forbidden = new Set(
    Object.values(catalogue).flatMap((provider) =>
      provider.apiKeyEnv === undefined ? [] : [provider.apiKeyEnv],
    ),
  );
  if (keyEnv !== undefined) forbidden.add(keyEnv);
  const env: Record<string, string> = {};
  const refused: string[] = [];
  for (const name of [...BASE_ENV_NAMES, ...extraNames]) {
    if (forbidden.has(name)) {
      if (!refused.includes(name)) refused.push(name);
      continue;
    }
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= FALLBACK_PATH;
  return { env, refused };
}

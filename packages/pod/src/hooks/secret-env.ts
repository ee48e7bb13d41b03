import { schemes } from "@yoake/llm-worker/internal";
import { catalogue } from "../manifest/catalogue.js";

/** Words that make a variable a secret wherever they stand in its name (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`). */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  "KEY",
  "KEYS",
  "APIKEY",
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "AUTH",
]);

/** Every key variable the catalogue and the schemes name (`ANTHROPIC_API_KEY`, `OLLAMA_API_KEY`, ...). */
const KNOWN_KEY_VARIABLES: ReadonlySet<string> = new Set(
  [
    ...Object.values(catalogue).map((provider) => provider.apiKeyEnv),
    ...Object.values(schemes).map((scheme) => scheme.env.apiKey),
  ].filter((name): name is string => name !== undefined),
);

/**
 * Whether a variable is kept from the commands yoake starts for a manifest (hooks, MCP servers):
 * a key variable of the catalogue or a scheme, the model's own `api_key_env` (in `keyVariables`),
 * or a name with one of the words KEY, APIKEY, TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
 * CREDENTIAL(S) or AUTH between its underscores, in any case.
 */
export function isSecretVariable(name: string, keyVariables: ReadonlySet<string> = new Set()): boolean {
  if (keyVariables.has(name) || KNOWN_KEY_VARIABLES.has(name)) return true;
  return name
    .toUpperCase()
    .split("_")
    .some((word) => SECRET_WORDS.has(word));
}

/**
 * `env` without its secrets (see `isSecretVariable`), except those a trusted manifest passes by
 * name (`pass_env`): what a hook or an MCP server is started with.
 */
export function withoutSecrets(
  env: Readonly<Record<string, string | undefined>>,
  options: { pass?: readonly string[]; keyVariables?: ReadonlySet<string> } = {},
): Record<string, string | undefined> {
  const pass = new Set(options.pass ?? []);
  const kept: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env))
    if (pass.has(name) || !isSecretVariable(name, options.keyVariables)) kept[name] = value;
  return kept;
}

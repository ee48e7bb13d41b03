import { onFirstUse } from "../lazy-dependency.js";

// `yaml` is ~70 CommonJS files (tens of milliseconds): required by the first file that has front
// matter, not by every Pod's start (commands and skills are looked for at each start).
const yaml = onFirstUse<typeof import("yaml")>("yaml");

/** A markdown file split into its YAML front matter (a mapping) and the text after it. */
export interface FrontMatterDocument {
  data: Readonly<Record<string, unknown>>;
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Splits `---`-fenced YAML front matter off a markdown file. A file without it has empty data.
 * Throws (one line, for the caller to prefix with the file) when the YAML is invalid or not a
 * mapping: a command or skill whose metadata cannot be read is reported, not guessed at.
 */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const opening = OPENING.exec(text);
  if (opening === null) return { data: {}, body: text };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) throw new Error("its front matter has no closing ---");
  let data: unknown;
  try {
    // `yaml` parses YAML 1.2: no code execution, no custom tags; `uniqueKeys` rejects repeats.
    data = yaml().parse(rest.slice(0, closing.index), { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`its front matter is not valid YAML: ${message}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data))
    throw new Error("its front matter is not a mapping of keys");
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  return { data: data as Record<string, unknown>, body };
}

/** A front matter field that must be a string when present. */
export function stringField(data: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`its front matter field "${key}" is not a string`);
  return value;
}

import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { userConfigPath } from "../manifest/user-config-dir.js";
import { parseFrontMatter, stringField } from "../markdown/front-matter.js";

/**
 * A custom slash command: `<name>.md` in the project's `.yoake/commands/` or the user's
 * `<config>/yoake/commands/`. Its body is a prompt template; `/name args` sends it with
 * `$ARGUMENTS` replaced (see `expandCommand`).
 */
export interface CustomCommand {
  name: string;
  /** From the front matter, else the body's first line. */
  description: string;
  /** `argument-hint` of the front matter, shown after the name (`/review <file>`). */
  argumentHint?: string;
  body: string;
  source: "project" | "user";
  path: string;
}

/** The commands found, and one line for each file that could not be read as one. */
export interface CustomCommands {
  commands: CustomCommand[];
  warnings: string[];
}

/** Lower-case letters, digits, `-` and `_`, starting with a letter: what a `/` command accepts. */
const NAME = /^[a-z][a-z0-9_-]*$/;
const MAX_COMMAND_BYTES = 64 * 1024;

/**
 * The user's and the project's custom commands, by name. Where both have one of the same name the
 * user's wins: a cloned repository must not change what a command the user wrote does. Project
 * commands need no trust: a command is only a prompt the user chooses to send, it runs nothing by
 * itself (there is no `!command` expansion), and the model's tool calls stay under scope and
 * approvals as for any prompt.
 */
export async function loadCustomCommands(
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<CustomCommands> {
  const warnings: string[] = [];
  const userDir = userConfigPath(env, "commands");
  const projectDir = path.join(projectRoot, ".yoake", "commands");
  const byName = new Map<string, CustomCommand>();
  for (const [dir, source] of [
    [projectDir, "project"],
    [userDir, "user"],
  ] as const)
    for (const command of await commandsIn(dir, source, warnings)) byName.set(command.name, command);
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { commands, warnings };
}

/**
 * The prompt `/name args` sends: the body with every `$ARGUMENTS` replaced by `args`; a body
 * without `$ARGUMENTS` gets the arguments after a blank line, so they are never dropped.
 */
export function expandCommand(command: CustomCommand, args: string): string {
  const body = command.body.trim();
  if (body.includes("$ARGUMENTS")) return body.replaceAll("$ARGUMENTS", args);
  return args === "" ? body : `${body}\n\n${args}`;
}

async function commandsIn(
  dir: string,
  source: CustomCommand["source"],
  warnings: string[],
): Promise<CustomCommand[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const commands: CustomCommand[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
    const file = path.join(dir, entry.name);
    const name = entry.name.slice(0, -".md".length).toLowerCase();
    if (!NAME.test(name)) {
      warnings.push(`${file}: not a command name (letters, digits, - and _, starting with a letter)`);
      continue;
    }
    try {
      const text = await readFile(file, "utf8");
      if (Buffer.byteLength(text) > MAX_COMMAND_BYTES)
        throw new Error(`it is over ${MAX_COMMAND_BYTES} bytes`);
      const { data, body } = parseFrontMatter(text);
      const argumentHint = stringField(data, "argument-hint");
      const description =
        stringField(data, "description") ??
        body
          .trim()
          .split("\n")[0]
          ?.replace(/^#+\s*/, "") ??
        "";
      commands.push({
        name,
        description,
        ...(argumentHint !== undefined && { argumentHint }),
        body,
        source,
        path: file,
      });
    } catch (error) {
      warnings.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return commands;
}

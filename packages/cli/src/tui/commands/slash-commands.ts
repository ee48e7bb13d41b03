/** A command the input box accepts after `/`. */
export interface SlashCommand {
  name: string;
  /** Shown in `/help` and in the hint under the input: `<id>` for an argument. */
  usage: string;
  description: string;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "help", usage: "/help", description: "Keys and commands" },
  {
    name: "compact",
    usage: "/compact",
    description: "Summarize the conversation and go on in a new session",
  },
  { name: "model", usage: "/model [provider/model]", description: "Show the model, or switch to another" },
  {
    name: "effort",
    usage: "/effort [low|medium|high|max]",
    description: "Show how hard the model thinks, or change it",
  },
  { name: "sessions", usage: "/sessions", description: "List the saved sessions of this project" },
  {
    name: "resume",
    usage: "/resume [id]",
    description: "Continue a saved session (without an id: choose one)",
  },
  { name: "clear", usage: "/clear", description: "Start a new, empty session (the old one can be resumed)" },
  { name: "mcp", usage: "/mcp", description: "The MCP servers of the manifest and their state" },
  { name: "quit", usage: "/quit", description: "Leave (also Ctrl+D on an empty input)" },
];

/** Custom commands (`.yoake/commands/*.md` and the user's): what `/name args` sends, and how `/help` lists them. */
export interface CustomSlashCommand extends SlashCommand {
  /** The prompt `/name args` sends. */
  expand(args: string): string;
}

/** The custom commands of the UI running in this process (there is one), set once it starts. */
let customCommands: readonly CustomSlashCommand[] = [];

/**
 * Makes `commands` known to completion, `/help` and the controller. A custom command named like a
 * built-in one is left out: the built-in wins, and the caller is told which were.
 */
export function setCustomSlashCommands(commands: readonly CustomSlashCommand[]): string[] {
  const builtIn = new Set(SLASH_COMMANDS.map((command) => command.name));
  customCommands = commands.filter((command) => !builtIn.has(command.name));
  return commands.filter((command) => builtIn.has(command.name)).map((command) => command.name);
}

/** The custom command called `name`, if there is one. */
export function customSlashCommand(name: string): CustomSlashCommand | undefined {
  return customCommands.find((command) => command.name === name);
}

const allCommands = (): readonly SlashCommand[] => [...SLASH_COMMANDS, ...customCommands];

/** A line of input read as a command: its name (lower-cased) and the rest as its argument. */
export interface ParsedCommand {
  name: string;
  argument: string;
}

/**
 * `/name rest` as a command, or undefined for ordinary input. A path typed at the start of a
 * message (`/etc/hosts is …`) is not a command: a name holds letters, digits, `-` and `_`, and
 * starts with a letter.
 */
export function parseSlashCommand(input: string): ParsedCommand | undefined {
  const trimmed = input.trim();
  const match = /^\/([a-zA-Z][\w-]*)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (match === null) return undefined;
  return { name: (match[1] as string).toLowerCase(), argument: (match[2] ?? "").trim() };
}

/** The commands whose name starts with what was typed after `/`, for the hint under the input. */
export function matchingCommands(input: string): readonly SlashCommand[] {
  if (!input.startsWith("/") || /\s/.test(input)) return [];
  const typed = input.slice(1).toLowerCase();
  return allCommands().filter((command) => command.name.startsWith(typed));
}

/** The keys, for `/help`. */
export const KEY_HELP: readonly (readonly [string, string])[] = [
  ["Enter", "send (during a turn: queue it for when the turn ends)"],
  ["Shift+Enter, Alt+Enter, Ctrl+J", "new line"],
  ["Up / Down", "earlier inputs (on the first / last line)"],
  ["@", "attach a file: type to filter, Tab or Enter to pick"],
  ["Esc", "clear the queue, else cancel the running turn (the session goes on)"],
  ["Ctrl+T", "show or fold thinking, from now on"],
  ["Ctrl+C", "clear the input, or cancel the turn; twice on an empty input: leave"],
];

/** The text `/help` prints. */
export function helpText(): string {
  const listed = allCommands();
  const width = Math.max(...listed.map((c) => c.usage.length), ...KEY_HELP.map(([k]) => k.length));
  const commands = listed.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`);
  const keys = KEY_HELP.map(([k, what]) => `  ${k.padEnd(width)}  ${what}`);
  return ["Commands:", ...commands, "Keys:", ...keys].join("\n");
}

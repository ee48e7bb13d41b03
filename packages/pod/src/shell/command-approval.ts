import { changesWhatRuns, commandName, isExactOnly, isFrontEnd, RUNNING_SUBCOMMANDS } from "./front-ends.js";

/** Why a `bash` call waits for the user, and what "allow for this session" would allow. */
export interface CommandAsk {
  command: string;
  /** False: the command would run with no sandbox at all. */
  sandboxed: boolean;
  /** One line for the user: unsandboxed, or the `always_ask` pattern it matched. */
  reason: string;
  /**
   * What `allow_session` allows from then on: commands of one simple part whose words start with
   * these (`npm test`), or this exact command: for a command that matched an always-ask pattern,
   * and for a front end or wrapper whose first words do not say what runs (see `sessionPrefix`).
   */
  sessionAllows: { kind: "prefix" | "exact"; text: string };
}

/** Shell syntax that joins commands or redirects: split on it, and refuse it in a prefix match. */
const OPERATORS = /&&|\|\||[;&|\n()`{}<>]|\$\(/;
/** Words before the command proper that do not change what it is. */
const WRAPPERS = new Set(["sudo", "env", "exec", "command", "nohup", "time", "builtin"]);

/**
 * When a `bash` call needs the user's approval beyond the tool-level `tools.approve`: every
 * command when there is no sandbox (`sandboxed` false), and in the sandbox the commands that
 * match a manifest's `[shell] always_ask` pattern (`git push`, `rm -rf`, `*` a wildcard), matched
 * against each part of the command (`a && b | c` has three). Patterns are a convenience for
 * catching the model's usual habits, not a barrier (`rm -r -f` is not `rm -rf`): the sandbox is
 * what confines a command. Prefixes allowed for the session skip the question.
 */
export class CommandApprovals {
  private readonly patterns: { text: string; regex: RegExp }[];
  private readonly allowedPrefixes: string[][] = [];
  private readonly allowedExact = new Set<string>();

  constructor(
    alwaysAsk: readonly string[],
    private readonly sandboxed: boolean,
    /** False (`--yes`): the user allowed every command in advance. */
    private readonly ask = true,
  ) {
    this.patterns = alwaysAsk.map((text) => ({ text, regex: patternRegex(text) }));
  }

  /** Why `command` must be approved, or undefined when it may run now. */
  check(command: string): CommandAsk | undefined {
    if (!this.ask || this.allowed(command)) return undefined;
    const parts = commandParts(command);
    const matched = this.patterns.find((pattern) => parts.some((part) => pattern.regex.test(part)));
    if (matched !== undefined)
      return {
        command,
        sandboxed: this.sandboxed,
        reason: `matches the always-ask pattern ${JSON.stringify(matched.text)}${this.sandboxed ? "" : ", unsandboxed"}`,
        sessionAllows: { kind: "exact", text: command.trim() },
      };
    if (this.sandboxed) return undefined;
    return {
      command,
      sandboxed: false,
      reason: "unsandboxed: nothing confines this command",
      sessionAllows: sessionPrefix(command),
    };
  }

  /** Records the user's "allow for this session" of an ask. */
  allowForSession(ask: CommandAsk): void {
    if (ask.sessionAllows.kind === "exact") this.allowedExact.add(ask.sessionAllows.text);
    else this.allowedPrefixes.push(words(ask.sessionAllows.text));
  }

  private allowed(command: string): boolean {
    if (this.allowedExact.has(command.trim())) return true;
    if (OPERATORS.test(command)) return false;
    const given = words(command);
    return this.allowedPrefixes.some(
      (prefix) =>
        prefix.length <= given.length &&
        prefix.every((word, i) => given[i] === word) &&
        !widensFrontEnd(prefix, given.slice(prefix.length)),
    );
  }
}

/** The simple commands of a command line, each without leading variable assignments and wrappers. */
export function commandParts(command: string): string[] {
  return command
    .split(new RegExp(OPERATORS.source, "g"))
    .map((part) => {
      const list = words(part.replace(/["']/g, ""));
      while (
        list.length > 0 &&
        (/^[A-Za-z_][A-Za-z0-9_]*=/.test(list[0] as string) || WRAPPERS.has(list[0] as string))
      )
        list.shift();
      return list.join(" ");
    })
    .filter((part) => part !== "");
}

/**
 * What "allow for this session" allows for a command: its first two words, stopping at the first
 * flag (`npm test`, `git status`, `ls`); a command with several parts only as it is. Never a first
 * word alone that says little about what runs:
 * - a wrapper, shell, remote or container command (`sudo`, `env`, `bash`, `ssh`, `docker`, `find`:
 *   `EXACT_ONLY_COMMANDS`), or a line that starts by setting a variable (`GIT_DIR=x git log`): the
 *   exact line;
 * - a front end (`git`, `python3`, `npm`: `FRONT_ENDS`) with an option before its subcommand
 *   (`git -c color.ui=never log`, `python3 -m pytest`, `npm -s test`): the exact line; else the
 *   front end and its subcommand (`git log`), with the next word too for a subcommand that runs
 *   what it names (`npm run build`), and later commands match it only without an option that
 *   changes what runs (`changesWhatRuns`) after it.
 */
function sessionPrefix(command: string): CommandAsk["sessionAllows"] {
  const exact = { kind: "exact", text: command.trim() } as const;
  if (OPERATORS.test(command)) return exact;
  const all = words(command);
  const first = all[0];
  // An empty prefix would allow everything.
  if (first === undefined || first.startsWith("-")) return exact;
  const name = commandName(unquote(first));
  if (isExactOnly(name) || ASSIGNMENT.test(first) || /["'\\$]/.test(first)) return exact;
  if (isFrontEnd(name)) {
    const subcommand = all[1];
    if (subcommand === undefined || !plainWord(subcommand)) return exact;
    if (!RUNNING_SUBCOMMANDS.has(subcommand)) return { kind: "prefix", text: `${first} ${subcommand}` };
    const target = all[2];
    if (target === undefined || !plainWord(target)) return exact;
    return { kind: "prefix", text: `${first} ${subcommand} ${target}` };
  }
  const prefix: string[] = [];
  for (const word of all) {
    if (word.startsWith("-") || prefix.length === 2) break;
    prefix.push(word);
  }
  return { kind: "prefix", text: prefix.join(" ") };
}

/** `NAME=value` before a command: it sets the command's environment (`GIT_CONFIG_PARAMETERS=...`). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** A subcommand or script name as it is: not an option, an assignment, a quote or an expansion. */
function plainWord(word: string): boolean {
  return !word.startsWith("-") && !ASSIGNMENT.test(word) && !/["'\\$*?[\]~]/.test(word);
}

/**
 * Whether the words after an allowed front end's prefix change what it runs: an option of
 * `RUN_CHANGING_OPTIONS` (quotes taken out: `'-c'` is `-c`), a `NAME=value` (make's `SHELL=...`),
 * or an expansion the shell would make into one (`$X`).
 */
function widensFrontEnd(prefix: readonly string[], rest: readonly string[]): boolean {
  const first = prefix[0];
  if (first === undefined || !isFrontEnd(commandName(first))) return false;
  return rest.some((word) => {
    const bare = unquote(word);
    return word.includes("$") || changesWhatRuns(bare) || ASSIGNMENT.test(bare);
  });
}

/** A word as the shell would see it, quotes and backslashes taken out (`'-c'` → `-c`). */
function unquote(word: string): string {
  return word.replace(/["'\\]/g, "");
}

function words(text: string): string[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
}

/** `git push*` → matches a part that starts with those words; `*` matches anything. */
function patternRegex(pattern: string): RegExp {
  const body = words(pattern)
    .map((word) => word.split("*").map(escapeRegex).join(".*"))
    .join("\\s+");
  return new RegExp(`^${body}(\\s|$)`);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

import { type CustomCommand, expandCommand, loadCustomCommands } from "@yoake/pod";
import { type CustomSlashCommand, parseSlashCommand } from "../tui/commands/slash-commands.js";

/**
 * The custom commands of the project and the user as the CLI uses them, and one line for each file
 * that could not be read as one (printed as warnings).
 */
export async function customSlashCommands(
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ commands: CustomSlashCommand[]; warnings: string[] }> {
  const loaded = await loadCustomCommands(projectRoot, env);
  return { commands: loaded.commands.map(slashCommandOf), warnings: loaded.warnings };
}

/**
 * A headless prompt that starts with `/name` of a custom command, expanded; any other prompt (a
 * path such as `/etc/hosts`, an unknown name) as it is.
 */
export function expandHeadlessPrompt(prompt: string, commands: readonly CustomSlashCommand[]): string {
  const parsed = parseSlashCommand(prompt);
  const command = parsed === undefined ? undefined : commands.find((c) => c.name === parsed.name);
  return command === undefined || parsed === undefined ? prompt : command.expand(parsed.argument);
}

function slashCommandOf(command: CustomCommand): CustomSlashCommand {
  const usage =
    command.argumentHint === undefined ? `/${command.name}` : `/${command.name} ${command.argumentHint}`;
  return {
    name: command.name,
    usage,
    description: `${command.description} (${command.source})`,
    expand: (args) => expandCommand(command, args),
  };
}

import type { EffortLevel } from "@yoake/pod";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { AgentCommandOptions } from "./agent-command.js";
import { CliError, ExitCode } from "./cli-error.js";
import type { DemoCommandOptions } from "./demo/demo-command.js";
import { addFleetCommands } from "./fleet-commands.js";
import { OUTPUT_FORMATS } from "./headless/output-format.js";
import { interruptOnSigint } from "./interrupt.js";
import { type CliIO, processIO } from "./io.js";
import { PACKAGE_VERSION } from "./package-files.js";
import { screenText } from "./screen-text.js";
import type { ServeCommandOptions } from "./serve-command.js";

/**
 * The Pod's levels, written out: importing them would load the whole Pod for `--help`. The type
 * keeps the two lists in step (a level the Pod does not know fails to compile).
 */
const EFFORT_LEVELS: readonly EffortLevel[] = ["low", "medium", "high", "max"];

/**
 * The `yoake` command. Returns the exit code instead of exiting, so tests run it in-process with
 * their own `io`. Without `io` it runs on the process's streams, and Ctrl-C during a headless run
 * cancels the running turn (a second Ctrl-C exits at once).
 */
export async function main(argv: readonly string[], io?: CliIO): Promise<number> {
  const cliIO = io ?? processIO();
  // Ctrl-C is the process's own: in-process callers (tests) keep theirs.
  const interrupts = io === undefined ? interruptOnSigint : undefined;
  let exitCode: number = ExitCode.ok;
  // Each sub-command is imported when it runs: --version and --help load none of them, -p not the
  // terminal UI (ink, React), the terminal UI not the Agent Client Protocol.
  const program = buildProgram(cliIO, {
    agent: async (options) => {
      const { agentCommand } = await import("./agent-command.js");
      exitCode = await agentCommand(options, cliIO, interrupts);
    },
    demo: async (options) => {
      const { demoCommand } = await import("./demo/demo-command.js");
      exitCode = await demoCommand(options, cliIO, interrupts);
    },
    acp: async ({ trustProject, attach }) => {
      const { runAcp, settleAcpProjectTrust } = await import("./acp/main.js");
      await settleAcpProjectTrust(cliIO, trustProject);
      exitCode = await runAcp({ ...cliIO, attach });
    },
    serve: async (options) => {
      const { serveCommand, stopOnSignals } = await import("./serve-command.js");
      const stop = io === undefined ? stopOnSignals() : undefined;
      try {
        exitCode = await serveCommand(options, cliIO, stop?.signal);
      } finally {
        stop?.dispose();
      }
    },
  });
  addFleetCommands(program, cliIO, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help, or the version).
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof CliError) {
      // The message may quote a manifest or a server's answer: screen text, like all outside text.
      cliIO.stderr.write(`yoake: ${screenText(error.message)}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

interface Actions {
  agent(options: AgentCommandOptions): Promise<void>;
  demo(options: DemoCommandOptions): Promise<void>;
  acp(options: { trustProject: boolean; attach: boolean }): Promise<void>;
  serve(options: ServeCommandOptions): Promise<void>;
}

function buildProgram(io: CliIO, actions: Actions): Command {
  const program = new Command("yoake")
    .description(
      "An LLM coding agent on your project: an interactive terminal UI, or one headless run with -p.",
    )
    .version(PACKAGE_VERSION, "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .enablePositionalOptions()
    .showHelpAfterError('(run "yoake --help" for the options)');

  program
    .option("-p, --prompt [text]", "run one headless turn and print the answer; standard input is read too")
    .addOption(
      new Option("--output-format <format>", "how -p prints").choices(OUTPUT_FORMATS).default("text"),
    )
    .option("--output-schema <file>", "-p: answer with a JSON object matching the JSON Schema in <file>")
    .option(
      "--model <provider/model>",
      "the model, e.g. anthropic/claude-sonnet-4-5, openai/gpt-5, ollama/qwen3",
    )
    .option("--max-turns <n>", "most model requests in one run", positiveInteger)
    .addOption(
      new Option("--effort <level>", "how hard the model thinks, mapped per provider").choices(EFFORT_LEVELS),
    )
    .option("--allow <path>", "let the agent read <path> too (repeatable)", collect)
    .option("--allow-write <path>", "let the agent write <path> too (repeatable)", collect)
    .option("--deny <path>", "keep the agent from reading or writing <path> (repeatable)", collect)
    .option("--deny-write <path>", "keep the agent from writing <path> (repeatable)", collect)
    .option("-y, --yes", "approve every tool call (headless runs deny calls that need approval otherwise)")
    .option("--cwd <dir>", "the directory to work in (default: the current one)")
    .option("-c, --continue", "continue the latest session of this project")
    .option("-r, --resume <id>", "resume the session <id>")
    .option(
      "--db <url>",
      "keep sessions and blobs in this PostgreSQL database (default: $YOAKE_DATABASE_URL)",
    )
    .option("--verbose", "headless: report each tool call and info alerts on stderr")
    .option(TRUST_FLAG, TRUST_HELP)
    .option(NO_ATTACH_FLAG, NO_ATTACH_HELP)
    .addHelpText("after", HELP_AFTER)
    .action(async (raw: RawAgentOptions) => {
      await actions.agent(agentOptions(raw));
    });

  program
    .command("demo")
    .description("the whole system against a scripted model: no account, no network")
    .option("-p, --print", "print the session as text instead of opening the terminal UI")
    .option("--keep", "keep the temporary project afterwards and print where it is")
    .action(async (raw: DemoCommandOptions) => {
      await actions.demo(raw);
    });

  program
    .command("acp")
    .description("serve the Agent Client Protocol on standard input and output, for editors (Zed, ...)")
    .option(TRUST_FLAG, TRUST_HELP)
    .option(NO_ATTACH_FLAG, NO_ATTACH_HELP)
    .action(async (raw: { trustProject?: true; attach: boolean }) => {
      await actions.acp({ trustProject: raw.trustProject === true, attach: raw.attach });
    });

  program
    .command("serve")
    .description("keep a Pod running on the project, behind its socket: yoake, -p and acp attach to it")
    .option("--cwd <dir>", "the directory to work in (default: the current one)")
    .option("--model <provider/model>", "the model")
    .option("-c, --continue", "continue the latest session of this project")
    .option("-r, --resume <id>", "resume the session <id>")
    .option(TRUST_FLAG, TRUST_HELP)
    .action(async (raw: ServeCommandOptions) => {
      await actions.serve(raw);
    });

  return program;
}

const TRUST_FLAG = "--trust-project";
const TRUST_HELP =
  "trust the project's .yoake/manifest.toml (its hooks, MCP servers, base URL, wider scope) and remember it";

const NO_ATTACH_FLAG = "--no-attach";
const NO_ATTACH_HELP =
  "run a Pod in this process even when yoake serve serves the project (default: attach to it)";

const HELP_AFTER = `
Examples:
  yoake                                 the terminal UI on the project here
  yoake -p "Why does the build fail?"   one headless run; the answer on stdout
  git diff | yoake -p "Review this"     the -p text, then standard input
  yoake -p "Fix @src/app.ts" --yes --output-format json
  yoake -p "List the TODOs" --output-schema todos.json   the answer as validated JSON
  yoake demo                            try it with a scripted model: no key, no network
  yoake serve                           keep a Pod running here; yoake, -p and acp attach to it

Keys and endpoints: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY (and *_BASE_URL),
OLLAMA_HOST. Headless runs deny tool calls that need approval unless --yes.
A project manifest that asks for hooks, MCP servers, a base URL, paths outside the project or
fewer approvals applies only once trusted: the UI asks; -p and acp need --trust-project.
Exit codes: 0 finished, 1 the run failed or was cancelled, 2 bad usage or configuration,
130 interrupted.`;

interface RawAgentOptions {
  prompt?: string | true;
  outputFormat: AgentCommandOptions["outputFormat"];
  outputSchema?: string;
  model?: string;
  maxTurns?: number;
  effort?: EffortLevel;
  allow?: string[];
  allowWrite?: string[];
  deny?: string[];
  denyWrite?: string[];
  yes?: true;
  cwd?: string;
  continue?: true;
  resume?: string;
  db?: string;
  verbose?: true;
  trustProject?: true;
  attach: boolean;
}

function agentOptions(raw: RawAgentOptions): AgentCommandOptions {
  const { yes, ...rest } = raw;
  return { ...rest, approveAll: yes === true };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
  return n;
}

import type { ScriptedBlock } from "@yoake/llm-worker/testing";
import type { AnthropicTranscript, SentToolResult } from "./anthropic-transcript.js";
import { planAndDelegate } from "./plan-and-delegate-step.js";

/** What a step may ask of the model that plays it. */
export interface StepContext {
  transcript: AnthropicTranscript;
  /** A tool call with a fresh id; `key` names it within the step, to find its result later. */
  call(key: string, name: string, args: Record<string, unknown>): ScriptedBlock;
  /** The result of this step's call `key`, once the request carries it. */
  result(key: string): SentToolResult | undefined;
  /** Whether this step has made call `key` yet. */
  called(key: string): boolean;
  /** The tool results pruned from the context so far, described for the model's words. */
  prunedSoFar(): readonly string[];
}

export type Step = (context: StepContext) => ScriptedBlock[];

const text = (value: string): ScriptedBlock => ({ type: "text", text: value });

/** Step 1: the `@README.md` reference, then three reads at once (parallel tool calls). */
const explain: Step = ({ transcript, call, called, result }) => {
  if (!called("greet")) {
    const readme = transcript.attachments.find((a) => a.startsWith("[File: README.md]"));
    const title = readme
      ?.split("\n")
      .find((line) => line.startsWith("# "))
      ?.slice(2);
    const opening =
      readme === undefined
        ? "I could not see README.md (the reference did not resolve)."
        : `The README you attached with @README.md describes ${title ?? "the project"}: a tiny HTTP service that greets people by name.`;
    return [
      text(`${opening} Let me read the greeting code and the log, all three at once.`),
      call("greet", "read_file", { path: "src/greet.ts" }),
      call("format", "read_file", { path: "src/format.ts" }),
      call("log", "read_file", { path: "logs/server.log" }),
    ];
  }
  const typo = findNumberedLine(result("greet")?.text ?? "", "Helo,");
  const cap = /showing lines 1–(\d+) of (\d+)/.exec(result("log")?.text ?? "");
  const typoSentence =
    typo === undefined
      ? "I did not find the typo I expected in src/greet.ts."
      : `The wrong-looking greeting is a typo: src/greet.ts line ${typo.number} says "Helo" where it means "Hello".`;
  const logSentence =
    cap === null
      ? "The log came back whole."
      : `The log has ${cap[2]} lines; read_file showed lines 1–${cap[1]} and stopped at its 16 KiB cap, so I will search it rather than read it all.`;
  return [
    text(
      `${typoSentence} src/format.ts capitalises names and looks fine. ${logSentence} Shall I fix the typo?`,
    ),
  ];
};

/** Step 2: an edit with its diff (approved in the UI, or by the headless demo with a notice). */
const fix: Step = ({ call, called, result }) => {
  if (!called("edit"))
    return [
      text("Replacing “Helo,” with “Hello,” in src/greet.ts."),
      call("edit", "edit_file", { path: "src/greet.ts", old_string: "Helo,", new_string: "Hello," }),
    ];
  const outcome = result("edit");
  if (outcome === undefined || outcome.isError)
    return [text(`The edit was not applied: ${firstLine(outcome?.text ?? "no result")}`)];
  const added = outcome.text.split("\n").find((line) => line.startsWith("+") && !line.startsWith("+++"));
  return [text(`Fixed. The line now reads: ${added?.slice(1).trim() ?? "(see the diff)"}`)];
};

/** Step 3: a search too large for the context, stored as a blob, read back with `inspect`. */
const failures: Step = ({ call, called, result }) => {
  if (!called("grep"))
    return [
      text("Searching the log for errors."),
      call("grep", "grep", {
        pattern: "ERROR",
        path: "logs/server.log",
        output_mode: "content",
        head_limit: 2000,
      }),
    ];
  const found = result("grep")?.text ?? "";
  const stored = /^\[blob:([0-9a-f-]+)\] text \| (\d+) lines/.exec(found);
  if (stored === null) return [text(`The search came back inline: ${firstLine(found)}`)];
  const [, blobId = "", lineCount = "0"] = stored;
  const lines = Number(lineCount);
  if (!called("inspect"))
    return [
      text(
        `${lines} matching lines: too many to put in the context, so the Pod stored them as blob ${blobId} and sent me its summary. I'll read the last three lines with inspect.`,
      ),
      call("inspect", "inspect", { blob_id: blobId, selector: `lines:${Math.max(1, lines - 2)}-${lines}` }),
    ];
  const tail = result("inspect")?.text ?? "";
  const languages = [
    ...new Set([...`${found}\n${tail}`.matchAll(/unsupported language "([^"]+)"/g)].map((m) => m[1])),
  ];
  const last = tail
    .split("\n")
    .filter((line) => line.includes("ERROR"))
    .at(-1)
    ?.replace(/^\s*\d+\t/, "");
  return [
    text(
      `${lines} requests failed. Every failure I looked at (the summary's first and last lines, and the tail I read with inspect) is the same: a language the service does not support (${languages.join(", ")}). The last one: ${last ?? "(not found)"}. Adding those languages, or answering with the list of supported ones, would fix them.`,
    ),
  ];
};

/** Extra checks step 4 may make while the context has not been pruned yet. */
const CHECKS: ReadonlyArray<{ key: string; name: string; args: Record<string, unknown>; say: string }> = [
  // A long read first: the older results then leave the Pod's 4k-token tail and can be pruned.
  {
    key: "log-on",
    name: "read_file",
    args: { path: "logs/server.log", offset: 168 },
    say: "First reading on in the log, in case a failure further down is not about a language.",
  },
  { key: "check", name: "read_file", args: { path: "src/greet.ts" }, say: "Reading src/greet.ts again." },
  {
    key: "others",
    name: "grep",
    args: { pattern: "Helo\\b", path: "src", output_mode: "count" },
    say: "Making sure the typo is nowhere else.",
  },
  {
    key: "files",
    name: "glob",
    args: { pattern: "src/**/*.ts" },
    say: "And listing the sources, to be sure nothing else needs the change.",
  },
];

/** Step 4: more requests on a longer history, until the Pod prunes the oldest tool results. */
const wrapUp: Step = ({ call, called, result, prunedSoFar }) => {
  const pruned = prunedSoFar();
  const next = CHECKS.find((check) => !called(check.key));
  if (next !== undefined && (pruned.length === 0 || !called("check")))
    return [text(next.say), call(next.key, next.name, next.args)];
  const fixed = result("check")?.text.includes("Hello,") === true;
  const pruneSentence =
    pruned.length === 0
      ? "The context has not needed pruning yet."
      : `Along the way the Pod pruned my context: ${pruned.join(", ")} now reach me only as their one-line summaries (the stored history keeps them whole), so every later request is smaller.`;
  return [
    text(
      `${fixed ? "The fix is in: src/greet.ts says “Hello,”." : "I could not confirm the fix."} To sum up: the greeting typo is fixed, and the log's failures are all unsupported languages. ${pruneSentence}`,
    ),
  ];
};

/** Step 5: the tests with `bash`, a failure read from their output, the fix, the tests again. */
const tests: Step = ({ call, called, result }) => {
  // Only the verdict lines, keeping npm's exit code: the whole TAP output would be stored as a blob.
  const npmTest = {
    command: 'set -o pipefail; npm test 2>&1 | grep -E "^(not ok|# (pass|fail))"',
    description: "Run the project's tests",
  };
  if (!called("test")) return [text("Running the tests with bash."), call("test", "bash", npmTest)];
  const first = result("test")?.text ?? "";
  if (exitCodeOf(first) === 0) return [text(`The tests pass already: ${passLine(first)}.`)];
  if (!called("read")) {
    const failing = [...first.matchAll(/^not ok \d+ - (.*)$/gm)].map((match) => match[1]);
    const count = /^# fail (\d+)/m.exec(first)?.[1] ?? String(failing.length);
    return [
      text(
        `The tests fail (exit code ${exitCodeOf(first) ?? "unknown"}): ${count} failing${failing.length > 0 ? `, ${failing.join("; ")}` : ""}. The plural looks inverted; reading src/plural.mjs.`,
      ),
      call("read", "read_file", { path: "src/plural.mjs" }),
    ];
  }
  if (!called("edit"))
    return [
      text("It adds the “s” when the count is one. Swapping the condition."),
      call("edit", "edit_file", {
        path: "src/plural.mjs",
        // The demo project's JavaScript, quoted: `$` and `{` kept apart so no linter reads a placeholder.
        old_string: "count > 1 ? word : `$" + "{word}s`",
        new_string: "count === 1 ? word : `$" + "{word}s`",
      }),
    ];
  if (!called("retest")) return [text("Running the tests again."), call("retest", "bash", npmTest)];
  const second = result("retest")?.text ?? "";
  return [
    text(
      exitCodeOf(second) === 0
        ? `Fixed: the tests pass now (${passLine(second)}). bash ran in the sandbox the Pod compiled from its scope, so it needed no approval.`
        : `The tests still fail: ${firstLine(second)}`,
    ),
  ];
};

function exitCodeOf(output: string): number | undefined {
  const match = /\[exit code (\d+) · /.exec(output);
  return match === null ? undefined : Number(match[1]);
}

/** `# pass 2` of node's test runner, as words. */
function passLine(output: string): string {
  const pass = /^# pass (\d+)/m.exec(output)?.[1];
  return pass === undefined ? "see the output" : `${pass} passing`;
}

const finished: Step = () => [
  text(
    "That was the whole scripted tour: this model only knows its script. Run `yoake` in your own project with a provider key to talk to a real one.",
  ),
];

/** The steps in order: step n answers the n-th prompt. */
export const DEMO_STEPS: readonly Step[] = [explain, fix, failures, wrapUp, tests, planAndDelegate];

/** The step for the `promptCount`-th prompt (past the script: a closing remark). */
export function stepFor(promptCount: number): Step {
  return DEMO_STEPS[promptCount - 1] ?? finished;
}

function findNumberedLine(numbered: string, needle: string): { number: number; text: string } | undefined {
  for (const line of numbered.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab === -1 || !line.includes(needle, tab)) continue;
    const number = Number(line.slice(0, tab).trim());
    if (Number.isInteger(number)) return { number, text: line.slice(tab + 1) };
  }
  return undefined;
}

function firstLine(value: string): string {
  return value.split("\n", 1)[0] ?? "";
}

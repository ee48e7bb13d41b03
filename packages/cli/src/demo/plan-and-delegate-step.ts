import type { ScriptedBlock } from "@yoake/llm-worker/testing";
import type { AnthropicTranscript } from "./anthropic-transcript.js";
import type { Step } from "./demo-steps.js";

/** How the scripted model tells a sub-agent's request from the main conversation's. */
const SUB_AGENT_MARK = "Sub-agent task:";

const text = (value: string): ScriptedBlock => ({ type: "text", text: value });

const GOAL = "Report which unsupported languages the failing requests asked for";

/** Whether `transcript` is a sub-agent's conversation (its first prompt is the task it was given). */
export function isSubAgentRequest(transcript: AnthropicTranscript): boolean {
  return transcript.prompts[0]?.startsWith(SUB_AGENT_MARK) === true;
}

/**
 * The step after the tour's four: a plan (`todo_write`) and a sub-agent (`task`) that counts the
 * failures by language in a context of its own, then the plan marked done.
 */
export const planAndDelegate: Step = ({ call, called, result }) => {
  if (!called("plan"))
    return [
      text("A plan first, then I'll hand the counting to a sub-agent so its search stays out of my context."),
      call("plan", "todo_write", {
        goal: GOAL,
        items: [
          { content: "Count the failures per language (sub-agent)", status: "in_progress" },
          { content: "Report the languages to add", status: "pending" },
        ],
      }),
      call("task", "task", {
        description: "count failures per language",
        prompt: `${SUB_AGENT_MARK} count the lines of logs/server.log that mention an unsupported language, and say which languages they are.`,
      }),
    ];
  const answer = result("task")?.text ?? "";
  if (!called("done"))
    return [
      text("The sub-agent is back. Marking the plan done."),
      call("done", "todo_write", {
        items: [
          { content: "Count the failures per language (sub-agent)", status: "done" },
          { content: "Report the languages to add", status: "done" },
        ],
      }),
    ];
  const summary = answer.split("\n\n[sub-agent session")[0] ?? answer;
  return [
    text(
      `The sub-agent ran in its own read-only Pod with its own session log (linked in its result) and reported: ${summary} Adding those languages would fix the failures.`,
    ),
  ];
};

/** The sub-agent's side: a count and a sample of the failures (in parallel), then its answer. */
export const subAgent: Step = ({ call, called, result }) => {
  const pattern = 'unsupported language "[^"]+"';
  if (!called("count"))
    return [
      call("count", "grep", { pattern, path: "logs/server.log", output_mode: "count" }),
      call("sample", "grep", { pattern, path: "logs/server.log", output_mode: "content", head_limit: 8 }),
    ];
  const count = /(\d+)/.exec(result("count")?.text ?? "")?.[1] ?? "some";
  let sample = result("sample")?.text ?? "";
  // Long lines make even a short sample a stored output: its summary cuts them, inspect reads them.
  const stored = /^\[blob:([0-9a-f-]+)\]/.exec(sample);
  if (stored !== null) {
    if (!called("read")) return [call("read", "inspect", { blob_id: stored[1], selector: "lines:1-8" })];
    sample = result("read")?.text ?? "";
  }
  const languages = [...new Set([...sample.matchAll(/unsupported language "([^"]+)"/g)].map((m) => m[1]))];
  return [
    text(`${count} lines mention an unsupported language; the first 8 ask for: ${languages.join(", ")}.`),
  ];
};

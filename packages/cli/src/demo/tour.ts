/**
 * The prompts of the demo, in order. The scripted model plays one step per prompt it has been
 * sent (whatever the words, so a person may type their own in the UI); these are what the
 * headless demo sends and what the UI suggests.
 */
export const DEMO_PROMPTS = [
  "What does this project do? Start from @README.md, then look at the greeting code and the server log.",
  "Fix that typo.",
  "How many requests failed according to the log, and why?",
  "Check the fix once more, then sum up.",
  "Now run the project's tests, and fix what fails.",
  "Plan it, and have a sub-agent count the failures per language.",
] as const;

/** Says plainly what the demo is, before anything else is shown. */
export const SCRIPTED_NOTICE =
  "yoake demo: the model is SCRIPTED. A local mock provider speaks Anthropic's real streaming wire " +
  "format and plays a fixed conversation that reacts to the real requests (it reads the tool results " +
  "it is sent). No account, no key, no network. Everything else is real: the Pod, its manifest and " +
  "scope, the file tools, the sandboxed shell, approvals, the blob store with inspect, and context pruning.";

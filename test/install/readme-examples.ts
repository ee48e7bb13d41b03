/**
 * The code examples of the READMEs, found mechanically: every fenced block whose language is `ts`
 * or `js` is an example a user may copy whole, and the install test compiles and runs each one.
 * A block that is only a piece of a program (an object's shape, a call in the middle of one) says
 * so in its fence, ```` ```ts fragment ````, and is left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { MockHandler } from "@yoake/llm-worker/testing";

export interface ReadmeExample {
  /** `packages-pod-README-md-53`: a file name, unique per example. */
  name: string;
  /** Where it is, for messages: `packages/pod/README.md:53`. */
  where: string;
  language: "ts" | "js";
  code: string;
}

const FENCE = /^```(ts|js)((?: [\w-]+)*)\n([\s\S]*?)^```$/gm;

/** The root README and each package's, in that order. */
export function readmeFiles(repoRoot: string): string[] {
  const packages = readdirSync(path.join(repoRoot, "packages")).sort();
  return [
    "README.md",
    ...packages
      .map((name) => path.join("packages", name, "README.md"))
      .filter((file) => exists(repoRoot, file)),
  ];
}

export function readmeExamples(repoRoot: string): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  for (const file of readmeFiles(repoRoot)) {
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    for (const match of text.matchAll(FENCE)) {
      const [, language, info = "", code = ""] = match;
      if (info.split(" ").includes("fragment")) continue;
      const line = text.slice(0, match.index).split("\n").length;
      examples.push({
        name: `${file.replace(/[^\w]+/g, "-")}-${line}`,
        where: `${file}:${line}`,
        language: language as "ts" | "js",
        code,
      });
    }
  }
  return examples;
}

function exists(root: string, file: string): boolean {
  try {
    readFileSync(path.join(root, file));
    return true;
  } catch {
    return false;
  }
}

/**
 * The provider the examples talk to, as a model would answer a coding request: a first request
 * gets a call to fix the typo in `src/greet.ts` (so an example that handles approvals meets one),
 * a request that carries a tool's result gets a short answer.
 */
export const exampleModel: MockHandler = (request) => {
  const body = JSON.stringify(request.body);
  const hasToolResult = ["tool_result", "function_call_output", "functionResponse", '"role":"tool"'].some(
    (marker) => body.includes(marker),
  );
  if (hasToolResult) return { blocks: [{ type: "text", text: "Fixed the typo." }] };
  return {
    blocks: [
      {
        type: "tool_call",
        id: "call_1",
        name: "edit_file",
        arguments: { path: "src/greet.ts", old_string: "Helo", new_string: "Hello" },
      },
    ],
  };
};

/** The project the examples run in: a README to read, a typo to fix. */
export const EXAMPLE_PROJECT_FILES: Record<string, string> = {
  ".yoake/.keep": "",
  "README.md": "# greet\n",
  "src/greet.ts": 'export const greet = (name: string) => "Helo, " + name;\n',
};

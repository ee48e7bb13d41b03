/**
 * A Pod as a child process, speaking the protocol over its standard input and output:
 *
 *   node --conditions=@yoake/source --import tsx packages/pod/src/protocol/stdio-main.ts --cwd <project> [--set key=value ...] [--trust-project]
 *
 * `--set` assignments are manifest overrides (`parseOverrideAssignments`). `--trust-project`
 * applies the project's manifest whole (the parent decided to trust it; nothing is remembered);
 * without it, a project manifest the user has not trusted stops the start. The parent sends
 * `hello` first, like any client. Standard output carries protocol lines only (console output goes
 * to standard error); closing standard input cancels the run and ends the process. A Pod that
 * cannot start prints one line to standard error and exits with status 1.
 */
import { parseArgs } from "node:util";
import { parseOverrideAssignments } from "../manifest/overrides.js";
import { Pod } from "../pod.js";
import { serveStdio } from "./server.js";

// Anything printed by accident would corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cwd: { type: "string" },
      set: { type: "string", multiple: true },
      "trust-project": { type: "boolean" },
    },
    strict: true,
  });
  const pod = await Pod.create({
    cwd: values.cwd ?? process.cwd(),
    overrides: parseOverrideAssignments(values.set ?? []),
    ...(values["trust-project"] === true && { projectTrust: "trust-once" as const }),
  });
  const server = serveStdio(pod, process.stdin, process.stdout);
  const stop = (signal: string) => void server.shutdown(`the Pod received ${signal}`);
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  await server.closed;
  // The server ended standard output; the last lines (the shutdown event) must reach the parent.
  await new Promise<void>((resolve) => {
    process.stdout.once("finish", resolve);
    process.stdout.once("close", resolve);
    setTimeout(resolve, 2_000).unref();
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`yoake pod: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

import { CliError } from "../cli-error.js";
import type { InputStream } from "../io.js";

/**
 * The prompt of a headless run. Standard input is read (to its end) whenever it is not a
 * terminal, so `yoake -p < task.md` and `git diff | yoake -p "review this"` both work. With both,
 * the `-p` text comes first, then a blank line, then standard input (the instruction, then the
 * material it is about). Neither, or both empty, is a usage error.
 */
export async function headlessPrompt(flagPrompt: string | undefined, stdin: InputStream): Promise<string> {
  const piped = stdin.isTTY === true ? "" : (await readAll(stdin)).trimEnd();
  const flag = flagPrompt?.trim() ?? "";
  if (flag !== "" && piped !== "") return `${flag}\n\n${piped}`;
  const prompt = flag !== "" ? flag : piped;
  if (prompt === "")
    throw new CliError('no prompt: give one with -p "..." or on standard input (echo "..." | yoake -p)');
  return prompt;
}

async function readAll(stream: InputStream): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

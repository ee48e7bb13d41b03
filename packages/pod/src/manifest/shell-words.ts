/**
 * A command and its arguments as one line a person reads as a shell would: each word that is not
 * plain is single-quoted, so `["sh", "-c", "touch /tmp/x"]` shows as `sh -c 'touch /tmp/x'`, not as
 * a line that splits the argument differently from how it is run.
 */
export function shellWords(argv: readonly string[]): string {
  return argv.map(shellWord).join(" ");
}

/** Characters a shell takes literally in a word. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

function shellWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

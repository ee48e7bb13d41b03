/** "1 request", "3 requests": a count with its word, in the plural when it is not one. */
export function countOf(count, word) {
  return `${count} ${count > 1 ? word : `${word}s`}`;
}

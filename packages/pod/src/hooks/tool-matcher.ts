/**
 * A hook's `matcher` as a predicate on tool names: alternatives separated by `|`, `*` matching
 * any run of characters (`write_file|edit_*`). No matcher matches every tool. Compiled once, when
 * the hook is made.
 */
export function compileToolMatcher(matcher: string | undefined): (toolName: string) => boolean {
  if (matcher === undefined || matcher === "*") return () => true;
  const alternatives = matcher.split("|").map((alternative) =>
    alternative
      .split("*")
      .map((literal) => literal.replace(/[.+?^${}()[\]\\]/g, "\\$&"))
      .join(".*"),
  );
  const pattern = new RegExp(`^(?:${alternatives.join("|")})$`);
  return (toolName) => pattern.test(toolName);
}

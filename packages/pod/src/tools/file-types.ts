/**
 * The file types `grep`'s `type` filter knows, as globs on the file name — the same definitions as
 * ripgrep's built-in types of these names (`rg --type-list`; a test holds the two together), so
 * that both search engines select the same files. ripgrep is handed these definitions rather than
 * its own, which settles any difference between ripgrep versions.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  cpp: [
    "*.[ChH]",
    "*.[ChH].in",
    "*.[ch]pp",
    "*.[ch]pp.in",
    "*.[ch]xx",
    "*.[ch]xx.in",
    "*.cc",
    "*.cc.in",
    "*.hh",
    "*.hh.in",
    "*.inl",
  ],
  cs: ["*.cs"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  go: ["*.go"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.cjs", "*.js", "*.jsx", "*.mjs", "*.vue"],
  json: ["*.json", "*.sarif", "composer.lock"],
  jsonl: ["*.jsonl"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"],
  protobuf: ["*.proto"],
  py: ["*.py", "*.pyi"],
  python: ["*.py", "*.pyi"],
  ruby: ["*.gemspec", "*.rake", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  scala: ["*.sbt", "*.scala"],
  sql: ["*.psql", "*.sql"],
  svelte: ["*.svelte", "*.svelte.ts"],
  swift: ["*.swift"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.cts", "*.mts", "*.ts", "*.tsx"],
  txt: ["*.txt"],
  typescript: ["*.cts", "*.mts", "*.ts", "*.tsx"],
  vue: ["*.vue"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"],
};

/** The globs of `type`, or an error that lists the types there are. */
export function fileTypeGlobs(type: string): readonly string[] {
  const globs = Object.hasOwn(FILE_TYPES, type) ? FILE_TYPES[type] : undefined;
  if (globs === undefined) {
    throw new Error(
      `unknown file type ${JSON.stringify(type)}; the types are: ${Object.keys(FILE_TYPES).join(", ")} (or filter with glob)`,
    );
  }
  return globs;
}

#!/usr/bin/env node
// The installed package runs its compiled JavaScript (dist/). A checkout of the repository has
// the TypeScript sources here instead, and maybe no dist/ or a stale one: it runs the sources,
// through tsx (a development dependency of the repository, never installed with the package).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// A reader that stops early (`yoake --help | head -1`) closes the pipe: that ends the output, not
// the command with a stack trace.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

const sources = new URL("../src/main.ts", import.meta.url);
// `#main` is dist/main.js here (package.json `imports`), the bundle `npm run build` writes.
const { main } = existsSync(sources) ? await importSources() : await import("#main");
process.exitCode = await main(process.argv.slice(2));

async function importSources() {
  const { register } = await import("node:module");
  // The workspace packages resolve to their sources under this condition (see their exports).
  register(
    "data:text/javascript,export const resolve = (specifier, context, next) => next(specifier, " +
      '{ ...context, conditions: [...context.conditions, "@yoake/source"] });',
  );
  const tsx = await import("tsx/esm/api");
  // Named explicitly: tsx would otherwise read the tsconfig of the user's working directory.
  tsx.register({ tsconfig: fileURLToPath(new URL("../../../tsconfig.base.json", import.meta.url)) });
  return import(sources.href);
}

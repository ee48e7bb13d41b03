#!/usr/bin/env node
// The package ships TypeScript sources (as its workspace siblings do): register tsx's loader in
// this process, then import the entry point. No child process, so signals, the TTY and the exit
// code are this process's own. The tsconfig is named explicitly: tsx would otherwise pick up the
// one in the user's working directory, whose JSX settings may not be ours.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../../tsconfig.base.json", import.meta.url)) });
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));

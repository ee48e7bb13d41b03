#!/usr/bin/env node
// Placeholder until the CLI issue lands: the command exists so the workspace links a bin.
console.error("yoake: the command line is not built yet; see packages/cli/README.md");
process.exit(1);

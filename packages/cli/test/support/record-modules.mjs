// `node --import ./record-modules.mjs ...`: appends the URL of every module the process resolves
// to the file named by YOAKE_RECORD_MODULES, one per line (what a test of lazy loading reads).
import { register } from "node:module";

register("./record-modules-hooks.mjs", import.meta.url);

// `node --import ./record-modules.mjs ...`: appends the URL of every module the process resolves
// to the file named by YOAKE_RECORD_MODULES, one per line (what a test of lazy loading reads):
// ES modules through the loader's hooks, CommonJS ones (`createRequire(...)(name)`, which the
// hooks do not see on Node 20) through `Module._load`.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import { pathToFileURL } from "node:url";

register("./record-modules-hooks.mjs", import.meta.url);

const file = process.env.YOAKE_RECORD_MODULES;
const load = Module._load;
Module._load = function recordedLoad(request, parent, isMain, ...rest) {
  if (file !== undefined && !Module.isBuiltin(request)) {
    const resolved = Module._resolveFilename(request, parent, isMain);
    appendFileSync(file, `${pathToFileURL(resolved).href}\n`);
  }
  return load.call(this, request, parent, isMain, ...rest);
};

// Preloaded with --require: makes `@opentelemetry/api` unresolvable, as in an install without the peer.
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "@opentelemetry/api" || request.startsWith("@opentelemetry/api/")) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolve.call(this, request, ...rest);
};

// The module hooks of record-modules.mjs (they run on the loader's own thread).
import { appendFileSync } from "node:fs";

const file = process.env.YOAKE_RECORD_MODULES;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file !== undefined) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

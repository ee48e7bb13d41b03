import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { greet, type Language } from "./greet.js";

const LANGUAGES = new Set<string>(["en", "fr", "ja"]);

function log(level: "INFO" | "ERROR", message: string): void {
  appendFileSync("logs/server.log", `${new Date().toISOString()} ${level} ${message}\n`);
}

createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  const language = url.searchParams.get("lang") ?? "en";
  if (!LANGUAGES.has(language)) {
    log("ERROR", `unsupported language "${language}" for ${url.pathname}`);
    response.writeHead(400).end("unsupported language\n");
    return;
  }
  const text = greet(url.searchParams.get("name") ?? "", language as Language);
  log("INFO", `${url.pathname} 200 ${text.length} bytes`);
  response.end(`${text}\n`);
}).listen(8080);

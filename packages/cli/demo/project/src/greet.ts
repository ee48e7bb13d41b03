import { displayName } from "./format.js";

/** Languages the service can greet in. */
export type Language = "en" | "fr" | "ja";

const GREETINGS: Record<Language, (name: string) => string> = {
  en: (name) => `Helo, ${name}!`,
  fr: (name) => `Bonjour, ${name} !`,
  ja: (name) => `こんにちは、${name}さん`,
};

/** The greeting for a raw name as typed by a user; an empty name greets the world. */
export function greet(rawName: string, language: Language = "en"): string {
  const name = displayName(rawName);
  return GREETINGS[language](name === "" ? "World" : name);
}

/** How `-p` prints: the answer, one JSON object, or one JSON line per event then the result. */
export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** Requests in the generated log; enough that reading it whole is not an option. */
const REQUEST_COUNT = 4000;
/** One request in this many asks for a language the service does not have. */
const FAILURE_EVERY = 13;
const START = Date.UTC(2026, 10, 20, 9, 0, 0);
const NAMES = ["ada", "grace", "alan", "edsger", "barbara", "ken", "dennis", "margaret", "linus", "guido"];
const GOOD_LANGUAGES = ["en", "fr", "ja"];
const BAD_LANGUAGES = ["de", "es", "pt-BR"];

/**
 * The demo project's `logs/server.log`: what `src/server.ts` would have written over a morning,
 * with a failure (an unsupported language) every few requests. Generated rather than shipped
 * (it is a few hundred kilobytes), and the same bytes on every run: a small linear congruential
 * generator, seeded, stands in for traffic.
 */
export function generateServerLog(): string {
  let seed = 20_261_120;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed;
  };
  const lines: string[] = [];
  let time = START;
  for (let i = 1; i <= REQUEST_COUNT; i++) {
    time += 200 + (next() % 4000);
    const stamp = new Date(time).toISOString();
    const requestId = `${next().toString(16).padStart(8, "0")}${next().toString(16).padStart(8, "0")}`;
    const name = NAMES[next() % NAMES.length] ?? "ada";
    if (i % FAILURE_EVERY === 0) {
      const language = BAD_LANGUAGES[next() % BAD_LANGUAGES.length] ?? "de";
      lines.push(
        `${stamp} ERROR req=${requestId} unsupported language "${language}" for /hello?name=${name}`,
      );
    } else {
      const language = GOOD_LANGUAGES[next() % GOOD_LANGUAGES.length] ?? "en";
      const bytes = 9 + name.length + (language === "ja" ? 12 : 0);
      lines.push(`${stamp} INFO req=${requestId} /hello?name=${name}&lang=${language} 200 ${bytes} bytes`);
    }
  }
  return `${lines.join("\n")}\n`;
}

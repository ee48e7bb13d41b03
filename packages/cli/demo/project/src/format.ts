/** Names longer than this are cut, so a greeting always fits on one line. */
export const MAX_NAME_LENGTH = 40;

/** Trims a name, collapses inner spaces and capitalises each word: "  ada   lovelace " → "Ada Lovelace". */
export function displayName(raw: string): string {
  const words = raw.trim().split(/\s+/).filter(Boolean);
  const name = words.map((word) => word[0]?.toUpperCase() + word.slice(1).toLowerCase()).join(" ");
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH - 1)}…` : name;
}

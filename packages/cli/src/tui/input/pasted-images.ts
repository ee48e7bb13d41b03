import { open } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ImagePart } from "@yoake/llm-worker";
import { IMAGE_LIMIT_BYTES, imageTooLarge, sniffImageType } from "@yoake/pod";

/** What `takePastedImages` made of the input. */
export interface PastedImages {
  /** The input with each attached image's path replaced by `[Image: <name>]`. */
  text: string;
  images: ImagePart[];
  /** One sentence per image path that was not attached (too large). */
  refused: string[];
}

/**
 * Turns paths of image files in typed or pasted input into attachments: what a terminal inserts
 * when a screenshot is dropped on it (`/tmp/shot.png`, `'/a b/shot.png'`, `/a\ b/shot.png`,
 * `file:///…`, `~/…`). A token counts when it is such a path (absolute, `~/`, `./` or `file:`), it
 * names a regular file, and its bytes are PNG, JPEG, GIF or WebP; anything else stays text (an
 * `@path` reference goes its own way, through the scope). The file is read here, not through the
 * agent's scope: the user named it in their own terminal, and the model gets only its pixels.
 */
export async function takePastedImages(input: string, cwd: string): Promise<PastedImages> {
  const images: ImagePart[] = [];
  const refused: string[] = [];
  let text = "";
  let last = 0;
  for (const whole of pathTokens(input)) {
    // `see /tmp/shot.png?` names /tmp/shot.png: sentence punctuation after a path is not part of it.
    const token = (await imageToken(whole, cwd)) ?? (await imageToken(withoutTrailing(whole), cwd));
    if (token === undefined) continue;
    const { file, read } = token;
    text += input.slice(last, token.start);
    last = token.end;
    if ("refused" in read) {
      refused.push(read.refused);
      text += input.slice(token.start, token.end);
      continue;
    }
    images.push(read);
    text += `[Image: ${path.basename(file)}]`;
  }
  text += input.slice(last);
  return { text, images, refused };
}

/** Whether the input has a token that could be a path `takePastedImages` looks at. */
export function mayNameImagePath(input: string): boolean {
  return /(^|\s|['"])(\/|~\/|\.\/|file:\/\/)/.test(input);
}

const TRAILING = ".,;:!?)]}";

function withoutTrailing(token: PathToken): PathToken {
  let end = token.path.length;
  while (end > 0 && TRAILING.includes(token.path.charAt(end - 1))) end--;
  return { path: token.path.slice(0, end), start: token.start, end: token.end - (token.path.length - end) };
}

async function imageToken(
  token: PathToken,
  cwd: string,
): Promise<(PathToken & { file: string; read: ImagePart | { refused: string } }) | undefined> {
  const file = localPath(token.path, cwd);
  const read = file === undefined ? undefined : await readImage(file);
  return file === undefined || read === undefined ? undefined : { ...token, file, read };
}

interface PathToken {
  path: string;
  start: number;
  end: number;
}

/** Whitespace-separated tokens, with quotes and backslash-escaped spaces as a shell writes them. */
function* pathTokens(input: string): Generator<PathToken> {
  const token = /'([^']+)'|"([^"]+)"|((?:\\ |\S)+)/g;
  for (const match of input.matchAll(token)) {
    const raw = match[1] ?? match[2] ?? (match[3] as string).replaceAll("\\ ", " ");
    yield { path: raw, start: match.index, end: match.index + match[0].length };
  }
}

function localPath(token: string, cwd: string): string | undefined {
  if (token.startsWith("file://")) {
    try {
      return fileURLToPath(token);
    } catch {
      return undefined;
    }
  }
  if (token.startsWith("~/")) return path.join(homedir(), token.slice(2));
  if (path.isAbsolute(token)) return token;
  if (token.startsWith("./")) return path.resolve(cwd, token);
  return undefined;
}

async function readImage(file: string): Promise<ImagePart | { refused: string } | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const mediaType = sniffImageType(head.subarray(0, bytesRead));
    if (mediaType === undefined) return undefined;
    if (stats.size > IMAGE_LIMIT_BYTES) return { refused: imageTooLarge(path.basename(file), stats.size) };
    const bytes = await handle.readFile();
    return { type: "image", mediaType, data: bytes.toString("base64") };
  } finally {
    await handle.close();
  }
}

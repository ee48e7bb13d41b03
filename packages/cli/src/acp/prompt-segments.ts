import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImagePart } from "@yoake/llm-worker";
import type { Segment } from "@yoake/pod";
import { promptImage } from "./prompt-images.js";

/**
 * An ACP prompt as the Pod's input segments:
 * - `text` blocks are text, as they are (editors split "Fix @a.ts please" into three blocks and
 *   expect them joined without separators);
 * - a `resource_link` to a `file:` URI, and an embedded `resource` of a whole file, are file
 *   references: the Pod reads the file itself, through the scope, capped like `@path` input, and
 *   counts it as read so an edit needs no `read_file` first;
 * - an embedded resource that is not a whole file (another scheme, or a `file:` URI with a
 *   fragment such as `#L10:20`, which editors use for a selection) is text: its URI, then the text
 *   the editor sent, which is all there is of it;
 * - an image the model can take is left out here: `promptImages` attaches it (see `Pod.run`);
 * - anything else (a link to another scheme, binary resources, other images, audio) becomes a
 *   short bracketed note, so the model knows something was attached rather than losing it silently.
 *
 * File paths are made relative to `projectRoot` when inside it (the Pod resolves relative paths
 * against the project root); a path outside stays absolute, and the scope decides.
 */
export function promptSegments(blocks: readonly ContentBlock[], projectRoot: string): Segment[] {
  const segments: Segment[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        if (block.text !== "") segments.push({ type: "text", text: block.text });
        break;
      case "resource_link": {
        const file = wholeFilePath(block.uri);
        if (file !== undefined) segments.push({ type: "file_ref", path: projectPath(file, projectRoot) });
        else segments.push(note(`Link: ${block.name} <${block.uri}>`));
        break;
      }
      case "resource": {
        const resource = block.resource;
        const file = wholeFilePath(resource.uri);
        if (file !== undefined) segments.push({ type: "file_ref", path: projectPath(file, projectRoot) });
        else if ("text" in resource)
          segments.push({ type: "text", text: `\n[Resource: ${resource.uri}]\n${resource.text}\n` });
        else segments.push(note(`Resource: ${resource.uri} (binary, not shown)`));
        break;
      }
      case "image": {
        const image = promptImage(block);
        if ("refused" in image) segments.push(note(image.refused));
        break;
      }
      case "audio":
        segments.push(note("an audio clip was attached; yoake reads text only"));
        break;
    }
  }
  return segments;
}

/** The images of an ACP prompt that the model takes (see `promptImage`), in order. */
export function promptImages(blocks: readonly ContentBlock[]): ImagePart[] {
  const images: ImagePart[] = [];
  for (const block of blocks) {
    if (block.type !== "image") continue;
    const image = promptImage(block);
    if (!("refused" in image)) images.push(image);
  }
  return images;
}

/** The local path of a `file:` URI naming a whole file (no fragment, no query); else undefined. */
export function wholeFilePath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.hash !== "" || url.search !== "") return undefined;
  try {
    return fileURLToPath(url);
  } catch {
    // A file URI with a remote host (file://server/share) is not a local path.
    return undefined;
  }
}

/** `absolute` relative to `projectRoot` when it lies inside it, else as it is. */
export function projectPath(absolute: string, projectRoot: string): string {
  const relative = path.relative(projectRoot, absolute);
  if (relative === "") return ".";
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? absolute : relative;
}

function note(text: string): Segment {
  return { type: "text", text: `[${text}]` };
}

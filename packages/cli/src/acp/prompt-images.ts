import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImagePart } from "@yoake/llm-worker";
import type { ImageMediaType } from "@yoake/llm-worker/internal";
import { IMAGE_LIMIT_BYTES, imageTooLarge } from "@yoake/pod";

const MEDIA_TYPES: ReadonlySet<string> = new Set<ImageMediaType>([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

/**
 * An ACP `image` block as an image for the model, or why it cannot be one (a sentence for the
 * bracketed note the prompt carries instead): PNG, JPEG, GIF or WebP, up to `IMAGE_LIMIT_BYTES`
 * (the `@image` limit). The bytes are used when sent; a block with only an `http(s)` URI is
 * passed as a URL for the provider to fetch.
 */
export function promptImage(
  block: Extract<ContentBlock, { type: "image" }>,
): ImagePart | { refused: string } {
  if (!MEDIA_TYPES.has(block.mimeType))
    return {
      refused: `an image of type ${block.mimeType} was attached; yoake takes PNG, JPEG, GIF and WebP`,
    };
  const mediaType = block.mimeType as ImageMediaType;
  if (block.data !== "") {
    const bytes = Math.floor((block.data.length * 3) / 4);
    if (bytes > IMAGE_LIMIT_BYTES) return { refused: imageTooLarge("the attached image", bytes) };
    return { type: "image", mediaType, data: block.data };
  }
  const uri = block.uri ?? "";
  if (/^https?:\/\//.test(uri)) return { type: "image", url: uri, mediaType };
  return { refused: "an image without data was attached" };
}

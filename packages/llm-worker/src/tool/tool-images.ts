import type { ImagePart } from "../llm-client/item.js";

/**
 * A tool's answer with images (a screenshot, a rendered chart, an image file read from disk).
 *
 * The images go to the model as they are while the result is fresh, beside `text`: pixels have no
 * text summary to shrink them to, and the BlobStore holds what `inspect` can page through (text,
 * JSON), so they bypass both. `text` goes through the usual promotion (inline up to 800 bytes, else
 * stored with a summary). The history summary, kept after prune, names the images
 * (`[image: image/png, 12.0 KB]`); prune drops the images with the content.
 */
export interface ImageToolOutput {
  kind: "images";
  images: ImagePart[];
  text?: string;
}

/** A tool result of images, with an optional text beside them. */
export function imageOutput(images: readonly ImagePart[], text?: string): ImageToolOutput {
  return text === undefined
    ? { kind: "images", images: [...images] }
    : { kind: "images", images: [...images], text };
}

/** The images on one line, for summaries: each one's media type and size, or its URL. */
export function describeImages(images: readonly ImagePart[]): string {
  return images
    .map((image) =>
      "url" in image
        ? `[image: ${image.url}]`
        : `[image: ${image.mediaType}, ${formatBytes(base64Bytes(image.data))}]`,
    )
    .join(" ");
}

/** The decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith("==")) padding = 2;
  else if (data.endsWith("=")) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

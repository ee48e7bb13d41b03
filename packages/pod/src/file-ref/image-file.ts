import type { ImagePart } from "@yoake/llm-worker";
import type { ImageMediaType } from "@yoake/llm-worker/internal";

/**
 * The largest image the Pod attaches or reads, in bytes: 3.75 MiB is 5 MiB as base64, the most
 * Anthropic takes per image (OpenAI and Gemini take more). It also bounds the session log line
 * that stores the image.
 */
export const IMAGE_LIMIT_BYTES = 3.75 * 1024 * 1024;

/** Enough of a file's start to tell its image type. */
export const IMAGE_SNIFF_BYTES = 12;

/**
 * The image type of a file by its magic bytes (PNG, JPEG, GIF, WebP), whatever its name says;
 * `undefined` for anything else. A `.png` that is text is text; a screenshot named `shot` is an image.
 */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const at = (i: number): number | undefined => bytes[i];
  const ascii = (from: number, text: string): boolean =>
    [...text].every((char, i) => at(from + i) === char.charCodeAt(0));
  if (at(0) === 0x89 && ascii(1, "PNG\r\n\x1a\n")) return "image/png";
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  return undefined;
}

/** An image part of a file's bytes. */
export function imagePartOf(mediaType: ImageMediaType, bytes: Uint8Array): ImagePart {
  return {
    type: "image",
    mediaType,
    data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
  };
}

/** The sentence of an image over the limit: its size, the limit, and what to do. */
export function imageTooLarge(path: string, size: number): string {
  const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(2)} MiB`;
  return `${path} is an image of ${mib(size)}, over the ${mib(IMAGE_LIMIT_BYTES)} limit for images; scale it down or crop it first`;
}

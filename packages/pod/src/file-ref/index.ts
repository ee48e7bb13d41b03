export { IMAGE_LIMIT_BYTES, imageTooLarge, sniffImageType } from "./image-file.js";
export {
  type FileRefFailure,
  type FileRefResolution,
  MAX_LISTED_ENTRIES,
  resolveFileRef,
} from "./resolver.js";
export { fileRefPlaceholder, flattenSegments, parseSegments, type Segment } from "./segments.js";

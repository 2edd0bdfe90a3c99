/** Every documented limit of the Source code group, in one place (docs/source-code.md repeats them). */
export const limits = {
  /** Largest file: 512 KiB of UTF-8 (larger ⇒ `validation`, status 413). */
  maxFileBytes: 512 * 1024,
  /** Largest draft: 20 MiB of files in total (more ⇒ `conflict`). */
  maxDraftBytes: 20 * 1024 * 1024,
  /** Most files in a draft (more ⇒ `conflict`). */
  maxDraftFiles: 2_000,
  /** Longest path, in characters. */
  maxPathLength: 512,
  /** Longest path segment, in UTF-8 bytes (what file systems accept). */
  maxSegmentBytes: 255,
  /** Most files in one `files.writeMany` call. */
  maxFilesPerWrite: 100,
  /** Most paths in one `files.diff` call. */
  maxDiffPaths: 100,
  /** Diff text returned by one `files.diff` call before further files are listed as omitted. */
  maxDiffChars: 512 * 1024,
  /** Edit lease length: default, least and most, in seconds. */
  leaseTtlDefaultSeconds: 300,
  leaseTtlMinSeconds: 10,
  leaseTtlMaxSeconds: 3600,
  /** File list page size: default and most. */
  listDefault: 200,
  listMax: 1000,
} as const;

/** Human-readable byte counts for messages: 524288 → "512 KiB". */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

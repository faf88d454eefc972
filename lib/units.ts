/**
 * Units in messages users read. Framework-free, no imports: anything (the archive reader, the
 * upload services, the HTTP layer) may use it without pulling in more.
 */

/** Bytes in a megabyte as messages count them (MiB). */
export const MB = 1024 * 1024;

/**
 * Bytes as megabytes for messages: "50 MB", "0.5 MB", "12.3 MB".
 *
 * @param bytes a size in bytes
 * @returns whole megabytes as is; otherwise one decimal (three below 1 MB)
 */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(mb < 1 ? 3 : 1))} MB`;
}

/**
 * Hostile upload files for tests and measurements (issue 8): large, well-formed almost to the
 * end, so that a reader does all the work before it finds the one error.
 */

/**
 * A CoNLL-2012 file of `mentions` nested mentions, one chain id each: `mentions` token lines
 * open `(0`, `(1`, … and the next `mentions` lines close them innermost first; then a last
 * token line with a bad chain item `(1x`, and `#end document`. About 80 bytes per mention
 * (600,000 mentions: 48 MB). The reader's answer is a FormatError at line `2 * mentions + 2`.
 *
 * @param mentions how many nested mentions (≥ 0)
 * @param options `broken: false` leaves out the bad last line (the file is then valid)
 * @returns the file's text
 */
export function hostileConll2012(mentions: number, options: { broken?: boolean } = {}): string {
  const parts: string[] = ["#begin document (hostile); part 0\n"];
  for (let i = 0; i < mentions; i++) parts.push(`hostile 0 ${i} word NN * - - - - (${i}\n`);
  for (let i = mentions - 1; i >= 0; i--) parts.push(`hostile 0 ${i} word NN * - - - - ${i})\n`);
  if (options.broken !== false) parts.push("hostile 0 0 broken NN * - - - - (1x\n");
  parts.push("#end document\n");
  return parts.join("");
}

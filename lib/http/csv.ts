/**
 * The one CSV writer of the site: every CSV it produces (the leaderboard export, the final
 * results snapshots, the organizers' `runs.csv` in the runs archive) is written by
 * {@link csvText}, so the quoting and the formula guard below hold for all of them.
 *
 * **Format.** RFC 4180 as `csv-stringify` writes it: comma-separated, a cell is put in double
 * quotes only when it holds a comma, a double quote (doubled inside) or a line break (`\n` or
 * `\r`, whichever the line end is: `quote_record_delimiter`, which csv-stringify turns off by
 * default once a record delimiter is chosen); `\r\n`
 * after every record by default (`\n` on request), the last record included. `null` and
 * `undefined` are empty cells; numbers are written as `String(n)` (full precision, `-0.5`,
 * `1e-7`).
 *
 * **Formula guard (CSV injection).** Spreadsheets run a cell that starts with `=`, `+`, `-` or
 * `@` as a formula (a tab or a carriage return in front does not stop some of them), and some
 * (Apple Numbers) fold the full-width `＝` `＋` `－` `＠` into those. So a TEXT cell that starts
 * with one of `=` `+` `-` `@` tab (U+0009) carriage return (U+000D) `＝` (U+FF1D) `＋` (U+FF0B)
 * `－` (U+FF0D) `＠` (U+FF20) gets a leading apostrophe (`'`), as OWASP advises
 * (https://owasp.org/www-community/attacks/CSV_Injection): a spreadsheet shows it as text, and a
 * reader of the file sees the original after the apostrophe. The rule goes by the cell's type,
 * not its look: a JavaScript `number` is never guarded (a score of `-0.5` stays `-0.5`), a
 * `string` always is, even one that reads as a number (a team named `-1` is written `'-1`,
 * because names are text). This is `csv-stringify`'s own `escape_formulas` option, which
 * implements exactly this list and exception.
 */
import { stringify } from "csv-stringify/sync";

/** One cell: text (guarded), a number (written as is), or empty (`null`, `undefined`). */
export type CsvCell = string | number | null | undefined;

/** How records end: `"\r\n"` (RFC 4180, the default) or `"\n"`. */
export type CsvLineEnd = "\r\n" | "\n";

/**
 * The CSV text of some records (a header row is just the first record).
 *
 * @param records the rows, each an array of cells; `[]` gives `""`
 * @param lineEnd what ends each record, `"\r\n"` by default
 * @returns the CSV text, every record ended by `lineEnd`, text cells guarded (see the file comment)
 */
export function csvText(records: readonly (readonly CsvCell[])[], lineEnd: CsvLineEnd = "\r\n"): string {
  return stringify(
    records.map((r) => [...r]),
    {
      record_delimiter: lineEnd === "\r\n" ? "windows" : "unix",
      quote_record_delimiter: true,
      escape_formulas: true,
      cast: { number: (n) => String(n) },
    },
  );
}

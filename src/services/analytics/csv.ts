/**
 * CSV as RFC 4180 writes it: CRLF line ends; a field with a comma, quote, CR or LF quoted, its quotes doubled.
 * A text field that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * apostrophe, so an exported referrer or page path can never execute in the file's reader.
 */
export function csvField(value: string | number): string {
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (values: readonly (string | number)[]): string =>
  `${values.map(csvField).join(",")}\r\n`;

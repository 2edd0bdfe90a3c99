// Helpers are ordinary modules too. The sandbox has no Intl, so dates are formatted by hand.
const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2025-03-14" or an ISO timestamp → "March 14, 2025"; anything else → "". */
export function formatDate(value: unknown): string {
  if (typeof value !== "string" || value === "") return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return months[date.getUTCMonth()] + " " + date.getUTCDate() + ", " + date.getUTCFullYear();
}

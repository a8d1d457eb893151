/** A date and time as the admin reads them: in their own language and time zone ("27 Nov 2026, 22:40"). */
export function adminDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** /admin/backups: the backup runs, back up now, downloads (filled in by the backups work). */
export function BackupsTab() {
  return <h2>Backups</h2>;
}

import { LinkHealthSummary } from "#web/features/links/link-health.tsx";

/** /admin: how the site is doing and what needs attention (filled in by the admin-home work). */
export function HomeTab() {
  return (
    <>
      <h2>Home</h2>
      <LinkHealthSummary />
    </>
  );
}

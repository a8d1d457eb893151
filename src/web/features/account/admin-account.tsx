/** /admin/account: password and two-factor sign-in (filled in by the two-factor work). */
export function AccountTab() {
  return <h2>Account</h2>;
}

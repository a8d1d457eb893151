// The address of the blog's list the visitor saw last in this tab (its category, search and
// page), so a post's "Back to Blog" returns to it. In memory only: a reload forgets it.
let lastList = "/blog";

export function rememberList(address: string): void {
  lastList = address;
}

export function lastListAddress(): string {
  return lastList;
}

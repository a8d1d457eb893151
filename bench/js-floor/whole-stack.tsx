// The smallest page that hydrates with the site's whole client stack: React, TanStack Query
// (a query), wouter (a link and a route) and zustand (a store). Built by bench/js-floor.ts.
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { hydrateRoot } from "react-dom/client";
import { Link, Route, Router } from "wouter";
import { create } from "zustand";

const useCount = create<{ count: number }>(() => ({ count: 0 }));

function Page() {
  const answer = useQuery({ queryKey: ["floor"], queryFn: () => fetch("/healthz").then((r) => r.text()) });
  const count = useCount((state) => state.count);
  return (
    <Router>
      <Link href="/next">
        {answer.data ?? ""} {count}
      </Link>
      <Route path="/next">next</Route>
    </Router>
  );
}

const root = document.getElementById("root");
if (root) {
  hydrateRoot(
    root,
    <QueryClientProvider client={new QueryClient()}>
      <Page />
    </QueryClientProvider>,
  );
}

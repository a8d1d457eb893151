import { Link } from "wouter";

interface ErrorStateProps {
  message: string;
  action: string;
  href: string;
}

/** The load-failure panel: 'Oops! Something went wrong', a message and one way on. */
export function ErrorState({ message, action, href }: ErrorStateProps) {
  return (
    <section className="status-page" role="alert">
      <h1>Oops! Something went wrong</h1>
      <p>{message}</p>
      <Link href={href} role="button">
        {action}
      </Link>
    </section>
  );
}

export function Loading({ text }: { text: string }) {
  return (
    <p className="loading" aria-busy="true" role="status">
      {text}
    </p>
  );
}

import { relativeTime } from "#shared/features/blog/blog.ts";

/** 'x ago' as of the render; the server's wording is kept through hydration. */
export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  );
}

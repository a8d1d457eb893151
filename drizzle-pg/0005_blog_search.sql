ALTER TABLE "blog_posts" ADD COLUMN "search_text" text;--> statement-breakpoint
-- The blog's search index (docs/decisions/086-blog-search-and-pages.md): the posts' title,
-- excerpt and plain text as English words, weighted in that order, kept by PostgreSQL itself in
-- a generated column (the app never writes it), with a GIN index. Ranking reads the stored
-- words instead of parsing every found post's text again.
ALTER TABLE "blog_posts" ADD COLUMN "search_words" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, "title"), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("excerpt", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("search_text", '')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "blog_posts_search_idx" ON "blog_posts" USING gin ("search_words");

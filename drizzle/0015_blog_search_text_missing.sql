-- The posts still without their words for the search, which each start looks for: an index of
-- only those rows (empty once every post has its words), so the look reads no row.
CREATE INDEX `blog_posts_search_text_missing_idx` ON `blog_posts` (`id`) WHERE `search_text` IS NULL;

-- The admin's list of posts, drafts included, newest first: read backwards, this index gives a
-- page its twenty rows, where a sort read every post.
CREATE INDEX `blog_posts_admin_list_idx` ON `blog_posts` (`created_at`,`id`);

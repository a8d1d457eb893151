-- blog_posts rebuilt with its long texts last (content, content_markdown, search_text): SQLite
-- reads a column after a long text only by walking the pages the text spills onto, so a list of
-- posts read every post's text to reach its dates. Same rows, same ids, same next id.
CREATE TABLE `__new_blog_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`excerpt` text,
	`category` text,
	`cover_image` text,
	`meta_description` text,
	`meta_keywords` text,
	`published` integer DEFAULT false NOT NULL,
	`publish_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`content` text NOT NULL,
	`content_markdown` text,
	`search_text` text,
	FOREIGN KEY (`category`) REFERENCES `blog_categories`(`slug`) ON UPDATE cascade ON DELETE set null
);--> statement-breakpoint
INSERT INTO `__new_blog_posts` (`id`, `title`, `slug`, `excerpt`, `category`, `cover_image`, `meta_description`, `meta_keywords`, `published`, `publish_at`, `created_at`, `updated_at`, `content`, `content_markdown`, `search_text`) SELECT `id`, `title`, `slug`, `excerpt`, `category`, `cover_image`, `meta_description`, `meta_keywords`, `published`, `publish_at`, `created_at`, `updated_at`, `content`, `content_markdown`, `search_text` FROM `blog_posts`;--> statement-breakpoint
-- The next id stays past every id ever given (a deleted post's too), as AUTOINCREMENT promises.
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_blog_posts', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = '__new_blog_posts');--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'blog_posts'), 0)) WHERE `name` = '__new_blog_posts';--> statement-breakpoint
DROP TABLE `blog_posts`;--> statement-breakpoint
ALTER TABLE `__new_blog_posts` RENAME TO `blog_posts`;--> statement-breakpoint
CREATE UNIQUE INDEX `blog_posts_slug_unique` ON `blog_posts` (`slug`);--> statement-breakpoint
CREATE INDEX `blog_posts_published_created_idx` ON `blog_posts` (`published`,`created_at`);--> statement-breakpoint
-- The blog's list in its order, holding what its filter reads (drizzle-kit writes this
-- expression index wrongly for SQLite, so it is written here by hand).
CREATE INDEX `blog_posts_list_idx` ON `blog_posts` (`published`,coalesce(`publish_at`, `created_at`),`id`,`publish_at`,`category`);--> statement-breakpoint
-- The search index's triggers went with the old table (drizzle/0013): the same again.
CREATE TRIGGER `blog_posts_search_insert` AFTER INSERT ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(rowid, title, excerpt, search_text) VALUES (new.id, new.title, new.excerpt, new.search_text);
END;--> statement-breakpoint
CREATE TRIGGER `blog_posts_search_delete` AFTER DELETE ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(blog_posts_search, rowid, title, excerpt, search_text) VALUES ('delete', old.id, old.title, old.excerpt, old.search_text);
END;--> statement-breakpoint
CREATE TRIGGER `blog_posts_search_update` AFTER UPDATE ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(blog_posts_search, rowid, title, excerpt, search_text) VALUES ('delete', old.id, old.title, old.excerpt, old.search_text);
  INSERT INTO blog_posts_search(rowid, title, excerpt, search_text) VALUES (new.id, new.title, new.excerpt, new.search_text);
END;

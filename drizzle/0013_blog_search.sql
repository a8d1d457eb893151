ALTER TABLE `blog_posts` ADD `search_text` text;--> statement-breakpoint
-- The blog's search index (docs/decisions/086-blog-search-and-pages.md): an FTS5 table over the
-- posts' title, excerpt and plain text, kept by the triggers below in the same transaction as
-- every write to blog_posts. Porter stemming: "earnings" finds "earn", "earned", "earning".
CREATE VIRTUAL TABLE `blog_posts_search` USING fts5(title, excerpt, search_text, content='blog_posts', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');--> statement-breakpoint
CREATE TRIGGER `blog_posts_search_insert` AFTER INSERT ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(rowid, title, excerpt, search_text) VALUES (new.id, new.title, new.excerpt, new.search_text);
END;--> statement-breakpoint
CREATE TRIGGER `blog_posts_search_delete` AFTER DELETE ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(blog_posts_search, rowid, title, excerpt, search_text) VALUES ('delete', old.id, old.title, old.excerpt, old.search_text);
END;--> statement-breakpoint
CREATE TRIGGER `blog_posts_search_update` AFTER UPDATE ON `blog_posts` BEGIN
  INSERT INTO blog_posts_search(blog_posts_search, rowid, title, excerpt, search_text) VALUES ('delete', old.id, old.title, old.excerpt, old.search_text);
  INSERT INTO blog_posts_search(rowid, title, excerpt, search_text) VALUES (new.id, new.title, new.excerpt, new.search_text);
END;--> statement-breakpoint
INSERT INTO `blog_posts_search`(`blog_posts_search`) VALUES ('rebuild');

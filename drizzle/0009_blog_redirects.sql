CREATE TABLE `blog_redirects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`from_slug` text NOT NULL,
	`to_slug` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blog_redirects_from_idx` ON `blog_redirects` (`kind`,`from_slug`);
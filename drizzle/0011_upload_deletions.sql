CREATE TABLE `upload_deletions` (
	`name` text PRIMARY KEY NOT NULL,
	`deleted_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);

CREATE TABLE `admin_recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used` integer DEFAULT false NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `backup_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trigger` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`started_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`finished_at` integer,
	`file` text,
	`size` integer,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `editor_autosaves` (
	`key` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`saved_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `media` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`mime` text NOT NULL,
	`kind` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`alt` text DEFAULT '' NOT NULL,
	`variants` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_name_unique` ON `media` (`name`);--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_secret` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_pending_secret` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_last_step` integer;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_enabled_at` integer;--> statement-breakpoint
ALTER TABLE `affiliate_offers` ADD `description_html` text;--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `content_markdown` text;--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `publish_at` integer;--> statement-breakpoint
ALTER TABLE `site_pages` ADD `body_markdown` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `backup_cron` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `backup_keep` integer;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `link_check_hours` integer;
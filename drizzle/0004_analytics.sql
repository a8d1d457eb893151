CREATE TABLE `analytics_daily` (
	`day` text NOT NULL,
	`metric` text NOT NULL,
	`key` text DEFAULT '' NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `metric`, `key`)
);
--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_visitors` (
	`day` text NOT NULL,
	`visitor` text NOT NULL,
	`steps` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `visitor`)
);
--> statement-breakpoint
ALTER TABLE `site_settings` ADD `disclosure_wording` text;
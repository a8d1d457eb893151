CREATE TABLE `links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`destination` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`fallback_destination` text,
	`notes` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_checked_at` integer,
	`last_status` integer,
	`final_url` text,
	`hop_count` integer,
	`health_class` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`auto_fallback_after` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_slug_unique` ON `links` (`slug`);--> statement-breakpoint
ALTER TABLE `affiliate_offers` ADD `link_slug` text;--> statement-breakpoint
ALTER TABLE `recommended_products` ADD `link_slug` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `platform_a_link_slug` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `platform_b_link_slug` text;
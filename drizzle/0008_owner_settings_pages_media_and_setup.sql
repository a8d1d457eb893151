CREATE TABLE `setup_confirmations` (
	`item` text PRIMARY KEY NOT NULL,
	`confirmed_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `media` ADD `original_name` text;--> statement-breakpoint
ALTER TABLE `media` ADD `sha256` text;--> statement-breakpoint
ALTER TABLE `site_pages` ADD `in_footer` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `gift_discount_code` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `gift_discount_partner` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `gift_discount_percent` integer;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `community_url` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `operator_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `operator_contact` text DEFAULT '' NOT NULL;
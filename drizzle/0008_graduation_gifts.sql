ALTER TABLE `site_settings` ADD `gift_discount_code` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `gift_discount_partner` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `gift_discount_percent` integer;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `community_url` text DEFAULT '' NOT NULL;
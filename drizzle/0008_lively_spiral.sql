ALTER TABLE `site_pages` ADD `in_footer` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `operator_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `operator_contact` text DEFAULT '' NOT NULL;
ALTER TABLE `site_settings` ADD `public_origin` text;--> statement-breakpoint
ALTER TABLE `site_settings` ADD `public_origin_confirmed` integer DEFAULT false NOT NULL;
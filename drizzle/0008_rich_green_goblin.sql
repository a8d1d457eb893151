ALTER TABLE `media` ADD `original_name` text;--> statement-breakpoint
ALTER TABLE `media` ADD `sha256` text;
ALTER TABLE `admin_users` ADD `sign_in_challenge` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `sign_in_challenge_failures` integer DEFAULT 0 NOT NULL;
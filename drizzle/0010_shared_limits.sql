CREATE TABLE `shared_limits` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`state` text,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE INDEX `shared_limits_expires` ON `shared_limits` (`expires_at`);
CREATE TABLE `running_instances` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_check` text NOT NULL,
	`seen_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);

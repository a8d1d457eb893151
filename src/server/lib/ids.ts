import { randomBytes } from "node:crypto";

/** Result ids: 128 random bits, URL-safe, never sequential. */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}

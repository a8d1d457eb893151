import { randomBytes } from "node:crypto";

/** Result ids: 128 random bits, URL-safe, never sequential. */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * An id for a file the server names (22 URL-safe characters, about 127 random bits): like
 * newId, but it begins with a letter or a digit. A name that began with "-" would be read as
 * an option by shell tools (`rm *` in the folder), one with "." would be hidden from them.
 */
export function newFileId(): string {
  for (;;) {
    const id = newId();
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

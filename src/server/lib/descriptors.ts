import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";

// File descriptors: every connection and every open file takes one, and a process may hold at
// most its limit (RLIMIT_NOFILE, `ulimit -n`; Bun raises the soft limit to the hard one at
// start). Running out is not a storage fault: the disk is fine, the server just cannot open
// anything new until something closes.

const SHORTAGES = new Set(["EMFILE", "ENFILE"]);

/** "EMFILE" (this process is at its limit) or "ENFILE" (the whole system is), following `cause` chains; else null. */
export function descriptorShortage(error: unknown): "EMFILE" | "ENFILE" | null {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && SHORTAGES.has(code)) return code as "EMFILE" | "ENFILE";
  }
  return null;
}

/** The process's limit on open descriptors, read while one can still be opened. */
let knownLimit: number | null = null;

export function descriptorLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (line) knownLimit = Number(line[1]);
  } catch {
    // out of descriptors, or not Linux: the last value read
  }
  return knownLimit;
}

/** One descriptor kept in reserve, so the server can still count its descriptors when none is left. */
let spare: number | null = null;

export function reserveDescriptor(): void {
  descriptorLimit();
  try {
    spare ??= openSync("/dev/null", "r");
  } catch {
    // already out: nothing to keep
  }
}

/** How many descriptors the process holds (its reserve included), or null when that cannot be read. */
function descriptorsInUse(): number | null {
  const count = () => readdirSync("/proc/self/fd").length - 1;
  try {
    return count();
  } catch (error) {
    if (descriptorShortage(error) !== "EMFILE" || spare === null) return null;
  }
  // Out of descriptors: the reserve is lent to the count, then taken back.
  closeSync(spare);
  spare = null;
  try {
    return count() + 1;
  } catch {
    return null;
  } finally {
    reserveDescriptor();
  }
}

/** True when not one more file can be opened right now. */
export function outOfDescriptors(): boolean {
  try {
    closeSync(openSync("/dev/null", "r"));
    return false;
  } catch (error) {
    return descriptorShortage(error) !== null;
  }
}

/** What /healthz and the log say while descriptors are short, in the words an operator needs. */
export function describeShortage(code: "EMFILE" | "ENFILE"): string {
  if (code === "ENFILE")
    return "the system has run out of file descriptors (ENFILE): every process on this machine is refused new files and connections";
  const limit = descriptorLimit();
  const inUse = descriptorsInUse();
  return `the server has run out of file descriptors (limit ${limit ?? "unknown"}, in use ${inUse ?? "all"})`;
}

/** How every refusal for want of descriptors begins, whatever was asked. */
export const DESCRIPTORS_BUSY = "The server has too many connections and files open";

/** What an operator can do about it, logged once with the shortage. */
export const DESCRIPTOR_ADVICE =
  "raise the limit (ulimit -n before starting cam-guide; LimitNOFILE= in its systemd unit; --ulimit nofile= for Docker), and see docs/security.md on connections from one address";

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function format(level: string, message: string, fields?: Record<string, unknown>): string {
  const extra = fields
    ? " " +
      Object.entries(fields)
        .map(
          ([k, v]) =>
            `${k}=${v instanceof Error ? (v.stack ?? v.message) : typeof v === "string" ? v : JSON.stringify(v)}`,
        )
        .join(" ")
    : "";
  return `${new Date().toISOString()} ${level} ${message}${extra}`;
}

export const consoleLogger: Logger = {
  info: (m, f) => console.log(format("info", m, f)),
  warn: (m, f) => console.warn(format("warn", m, f)),
  error: (m, f) => console.error(format("error", m, f)),
};

/** Collects log lines in memory; tests use it to assert what was (not) logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (m: string, f?: Record<string, unknown>) => void lines.push(format(level, m, f));
  return { lines, info: push("info"), warn: push("warn"), error: push("error") };
}

import { join } from "node:path";
import type { AutoBackupResult } from "./auto-backup.ts";
import { type BackupReport, parseReport } from "./backup-process.ts";
import type { BackupKind } from "./files.ts";

/** The command that runs one backup in a child process: this same program, compiled or from source. */
export function backupCommand(kind: BackupKind, keep: number): string[] {
  const program = Bun.isStandaloneExecutable
    ? [process.execPath]
    : [process.execPath, join(import.meta.dir, "../../main.ts")];
  return [...program, "backup-auto", kind, String(keep)];
}

export interface BackupChild {
  /** Its first report: the run it recorded, or "busy"; null when it ended without one. */
  first: Promise<BackupReport | null>;
  /** How it ended: its last report, or a sentence made from its exit code or signal. */
  ended: Promise<AutoBackupResult>;
  stop(): void;
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop()?.replace(/\s+/g, " ").slice(0, 300) ?? "";
}

/** Starts `cam-guide backup-auto` and reads its reports as they come. */
export function startBackupChild(kind: BackupKind, keep: number, env: Record<string, string>): BackupChild {
  let child: ReturnType<typeof Bun.spawn<"ignore", "pipe", "pipe">>;
  try {
    child = Bun.spawn(backupCommand(kind, keep), {
      env: { ...process.env, ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (error) {
    const result = { ok: false, error: `The backup process could not be started (${(error as Error).message}).` };
    return { first: Promise.resolve(null), ended: Promise.resolve(result as AutoBackupResult), stop() {} };
  }
  let tellFirst: (report: BackupReport | null) => void = () => {};
  const first = new Promise<BackupReport | null>((resolve) => {
    tellFirst = resolve;
  });
  const reports: BackupReport[] = [];
  const take = (line: string) => {
    const report = parseReport(line.trim());
    if (!report) return;
    reports.push(report);
    tellFirst(report);
  };
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        take(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    }
    take(buffer);
    tellFirst(null);
  })();
  const ended = (async (): Promise<AutoBackupResult> => {
    const [, err, code] = await Promise.all([reading, new Response(child.stderr).text(), child.exited]);
    const last = reports.at(-1);
    if (last && "ok" in last) return last;
    const how = child.signalCode ? `signal ${child.signalCode}` : `exit code ${code}`;
    return {
      ok: false,
      error: `The backup process stopped before it finished (${how}${lastLine(err) ? `: ${lastLine(err)}` : ""}).`,
    };
  })();
  return { first, ended, stop: () => child.kill("SIGTERM") };
}

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FullConfig } from "@playwright/test";
import vnuJar from "vnu-jar";
import { htmlPagesDir } from "./html-pages.ts";

/** The machine's Java (Debian's default-jre-headless); JAVA overrides it. */
const JAVA = process.env.JAVA ?? "/usr/bin/java";
const VNU_JAR = String(vnuJar);

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
}

/**
 * After the journeys: the Nu HTML Checker over every page they visited (tests/e2e/html-pages.ts),
 * in one Java process. Any error fails the run with the page, the place and the checker's
 * message; warnings are not errors and pass.
 */
export default function validateHtml(config: FullConfig): void {
  const dirs = [...new Set(config.projects.map((p) => htmlPagesDir(p.outputDir)))].filter(existsSync);
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith(".html"))
      .map((name) => join(dir, name)),
  );
  if (!files.length) return;
  const started = performance.now();
  const run = spawnSync(JAVA, ["-jar", VNU_JAR, "--errors-only", "--format", "json", "--stdout", ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new Error(`the HTML checker could not start (${JAVA}): ${run.error.message}`);
  const { messages } = JSON.parse(run.stdout || '{"messages":[]}') as { messages: VnuMessage[] };
  const errors = messages.filter((m) => m.type === "error" || m.subType === "fatal");
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`HTML checker: ${files.length} pages, ${errors.length} errors (${seconds} s)`);
  if (!errors.length) return;
  // The same mistake on many pages reads once, with each page (and the file kept for it) below.
  const byMessage = new Map<string, string[]>();
  for (const m of errors) {
    const file = m.url ? fileURLToPath(m.url) : "";
    const source = file ? readFileSync(file.replace(/\.html$/, ".txt"), "utf8") : "?";
    const at = m.lastLine ? `:${m.lastLine}:${m.firstColumn ?? 0}` : "";
    const key = `${m.message}${m.extract ? `\n    near: ${m.extract.replace(/\n/g, " ")}` : ""}`;
    byMessage.set(key, [...(byMessage.get(key) ?? []), `${file}${at} (${source})`]);
  }
  const report = [...byMessage].map(([message, places]) => `${message}\n    in ${places.join("\n    in ")}`);
  throw new Error(`The HTML checker found ${errors.length} errors:\n${report.join("\n")}`);
}

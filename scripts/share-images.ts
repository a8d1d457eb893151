// Draws each archetype's social card (Open Graph / Twitter, 1200x630 PNG) from an SVG with
// resvg, at build time, into the client bundle's social/ folder: the page at the archetype's
// share address names it as og:image. The fonts are files in node_modules (Inter), and the
// machine's own fonts are never used, so every build draws the same pixels. No brand name
// (a runtime setting) and no emoji (the font has none): the name, its tagline, an invitation.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { archetypeProfiles } from "#server/features/quiz/content.ts";
import { ARCHETYPES, type Archetype } from "#shared/features/quiz/constants.ts";
import { archetypeSlug } from "#shared/features/quiz/share.ts";

const fonts = join(import.meta.dir, "..", "node_modules", "@expo-google-fonts", "inter");
const fontFiles = [join(fonts, "700Bold", "Inter_700Bold.ttf"), join(fonts, "400Regular", "Inter_400Regular.ttf")];

export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 };

/** Two dark colours per archetype, dark enough that white text reads on both. */
const PALETTE: Record<Archetype, [string, string]> = {
  "Girl Next Door": ["#2e5e2b", "#0f6b60"],
  Dominatrix: ["#3b0a1a", "#7a1030"],
  "Submissive / Brat": ["#8a1d5c", "#5b2a86"],
  "Goth / Alt Girl": ["#1c1626", "#4a2d63"],
  "Bimbo / Bombshell": ["#a3165c", "#6d1b7b"],
  "MILF / Cougar": ["#6b2d12", "#8e2443"],
  "Cosplay Babe": ["#16407a", "#5a2a8c"],
  "Fitness Queen": ["#7a3300", "#9c1f3d"],
  Seductress: ["#42102e", "#1f1a4d"],
  Couple: ["#6e1f4a", "#174a6b"],
};

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Breaks text into lines of at most `max` characters, at spaces. */
export function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function cardSvg(name: Archetype, tagline: string): string {
  const [from, to] = PALETTE[name];
  const { width, height } = SHARE_IMAGE_SIZE;
  // Inter at 40px averages about 21px a character: 44 characters stay inside 1040px.
  const taglineLines = wrap(tagline, 44);
  const nameSize = name.length > 14 ? 84 : 96;
  const taglineTop = 300;
  const tspans = taglineLines
    .map((l, i) => `<tspan x="80" y="${taglineTop + i * 54}">${escapeXml(l)}</tspan>`)
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="1110" cy="70" r="260" fill="#ffffff" fill-opacity="0.07"/>
  <circle cx="40" cy="660" r="240" fill="#ffffff" fill-opacity="0.05"/>
  <text x="80" y="120" font-family="Inter" font-weight="700" font-size="28" letter-spacing="4" fill="#ffffff" fill-opacity="0.85">PERSONA QUIZ RESULT</text>
  <text x="80" y="215" font-family="Inter" font-weight="700" font-size="${nameSize}" fill="#ffffff">${escapeXml(name)}</text>
  <text font-family="Inter" font-weight="400" font-size="40" fill="#ffffff">${tspans}</text>
  <rect x="80" y="500" width="560" height="72" rx="36" fill="#ffffff"/>
  <text x="360" y="547" text-anchor="middle" font-family="Inter" font-weight="700" font-size="30" fill="${from}">Take the free persona quiz</text>
</svg>`;
}

/** One PNG per archetype; returns the files written. */
export function writeShareImages(outdir: string): string[] {
  mkdirSync(outdir, { recursive: true });
  return ARCHETYPES.map((name) => {
    const profile = archetypeProfiles.find((p) => p.name === name);
    if (!profile) throw new Error(`No profile for ${name}`);
    const png = new Resvg(cardSvg(name, profile.tagline), {
      fitTo: { mode: "original" },
      font: { loadSystemFonts: false, fontFiles, defaultFontFamily: "Inter" },
    })
      .render()
      .asPng();
    const file = join(outdir, `${archetypeSlug(name)}.png`);
    writeFileSync(file, png);
    return file;
  });
}

import type { ReactNode } from "react";
import { BOOT_ELEMENT_ID, type BootAssets } from "./boot.ts";
import { THEME_SCRIPT } from "./theme-script.ts";

interface DocumentProps {
  assets: BootAssets;
  /** The serialized boot data, rendered verbatim so server and client output match. */
  bootJson: string;
  children: ReactNode;
}

export function Document({ assets, bootJson, children }: DocumentProps) {
  return (
    // The theme script sets data-theme before React runs, so the attribute differs on purpose.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, no outside input */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {/* The tab icon comes from the head script: discreet mode swaps it (discreet-mode.ts). */}
        <link rel="stylesheet" href={assets.css} />
        {assets.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        {children}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block, escaped where it is serialised */}
        <script type="application/json" id={BOOT_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: bootJson }} />
      </body>
    </html>
  );
}

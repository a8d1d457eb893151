// A video in a post (the player frame the renderer makes of a lone YouTube or Vimeo link, or a
// frame written in HTML) loads nothing from the player's site until the reader asks for it
// (docs/product.md#blog-post-page), as offer videos wait: the frame is replaced by a placeholder
// the size of the player that names the site, a plain link to the video's own page (all there is
// without JavaScript) and a 'Load video' button that puts the player in its place.

import { decodeAttribute, escapeAttribute } from "#shared/html-attributes.ts";

const FRAME = /<iframe([^>]*)><\/iframe>/g;

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes);
  return match ? decodeAttribute(match[1] ?? "") : null;
}

/** The video's own page for a player's address (a reader can watch it there), else the address itself. */
function videoPage(player: URL): string {
  const youtube = /^\/embed\/([\w-]+)/.exec(player.pathname);
  if (player.hostname.endsWith("youtube-nocookie.com") || player.hostname.endsWith("youtube.com"))
    return youtube ? `https://www.youtube.com/watch?v=${youtube[1]}` : player.href;
  const vimeo = /^\/video\/(\d+)/.exec(player.pathname);
  if (player.hostname === "player.vimeo.com" && vimeo) return `https://vimeo.com/${vimeo[1]}`;
  return player.href;
}

/** The post's HTML with each frame waiting behind a placeholder (a frame with no readable https address is dropped). */
export function videoPlaceholders(html: string): string {
  return html.replace(FRAME, (_frame, attributes: string) => {
    let player: URL;
    try {
      player = new URL(attribute(attributes, "src") ?? "");
    } catch {
      return "";
    }
    if (player.protocol !== "https:") return "";
    const title = attribute(attributes, "title") || "Video";
    const host = player.hostname.replace(/^www\./, "");
    const page = new URL(videoPage(player));
    return (
      `<figure class="video-placeholder" data-video="${escapeAttribute(player.href)}" data-video-title="${escapeAttribute(title)}">` +
      `<p>${escapeAttribute(title)}: plays from ${escapeAttribute(host)}. Loading it sends your address to that site.</p>` +
      `<p><button type="button" class="when-script" data-load-video="">Load video</button> ` +
      `<a href="${escapeAttribute(page.href)}">Watch it on ${escapeAttribute(page.hostname.replace(/^www\./, ""))}</a></p>` +
      "</figure>"
    );
  });
}

/** Puts the player in place of the placeholder whose 'Load video' button was pressed (the reader's click, delegated). */
export function loadVideo(event: Event) {
  const button = event.target instanceof Element ? event.target.closest("[data-load-video]") : null;
  const box = button?.closest<HTMLElement>("[data-video]");
  if (!box?.dataset.video) return;
  const frame = document.createElement("iframe");
  frame.src = box.dataset.video;
  frame.title = box.dataset.videoTitle ?? "Video";
  frame.allow = "encrypted-media; picture-in-picture; fullscreen";
  frame.allowFullscreen = true;
  frame.referrerPolicy = "strict-origin-when-cross-origin";
  box.replaceWith(frame);
  // The button is gone: focus goes to the player, so the keyboard carries on from there.
  frame.focus();
}

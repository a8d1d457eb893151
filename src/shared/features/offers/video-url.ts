// Offer videos from YouTube (regular, embed and Shorts links)
// play from the privacy-enhanced domain, Vimeo from its player, direct files in a muted,
// looping, inline <video>. Anything else is not played.

export type VideoSource =
  | { kind: "youtube"; id: string; src: string }
  | { kind: "vimeo"; id: string; src: string }
  | { kind: "file"; src: string; type: string };

const FILE_TYPES: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  ogg: "video/ogg",
  ogv: "video/ogg",
};

/**
 * The only third-party origins the site ever loads, and only as frames: the players of
 * offer videos (and of videos embedded in blog posts). The CSP's frame-src is built from it.
 */
export const VIDEO_PLAYER_ORIGINS = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"] as const;

function youtubeSrc(id: string): string {
  // loop needs the playlist parameter; mute lets browsers autoplay.
  return `${VIDEO_PLAYER_ORIGINS[0]}/embed/${id}?autoplay=1&mute=1&loop=1&playlist=${id}&playsinline=1&rel=0`;
}

function vimeoSrc(id: string): string {
  return `${VIDEO_PLAYER_ORIGINS[1]}/video/${id}?autoplay=1&muted=1&loop=1`;
}

export function toVideoSource(raw: string | null | undefined): VideoSource | null {
  const input = raw?.trim();
  if (!input) return null;
  let url: URL;
  try {
    // Site-relative paths (uploaded files) resolve against a dummy origin.
    url = new URL(input, "https://self.invalid");
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.replace(/^(www\.|m\.)/, "");
  const parts = url.pathname.split("/").filter(Boolean);
  const youtubeId = (id: string | null | undefined) => (id && /^[\w-]{11}$/.test(id) ? id : null);

  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const id = youtubeId(
      parts[0] === "watch"
        ? url.searchParams.get("v")
        : ["embed", "shorts", "live", "v"].includes(parts[0] ?? "")
          ? parts[1]
          : null,
    );
    return id ? { kind: "youtube", id, src: youtubeSrc(id) } : null;
  }
  if (host === "youtu.be") {
    const id = youtubeId(parts[0]);
    return id ? { kind: "youtube", id, src: youtubeSrc(id) } : null;
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const id = [...parts].reverse().find((p) => /^\d+$/.test(p));
    return id ? { kind: "vimeo", id, src: vimeoSrc(id) } : null;
  }
  const ext = parts.at(-1)?.split(".").pop()?.toLowerCase() ?? "";
  const type = FILE_TYPES[ext];
  if (!type) return null;
  const src = url.origin === "https://self.invalid" ? url.pathname + url.search : url.href;
  return { kind: "file", src, type };
}

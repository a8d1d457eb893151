import { describe, expect, test } from "bun:test";
import { toVideoSource } from "./video-url.ts";

const yt =
  "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&mute=1&loop=1&playlist=dQw4w9WgXcQ&playsinline=1&rel=0";

describe("video URL conversion", () => {
  test.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", yt],
    ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", yt],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", yt],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", yt],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", yt],
    ["https://youtu.be/dQw4w9WgXcQ", yt],
    ["https://youtu.be/dQw4w9WgXcQ?si=abc", yt],
    ["  https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ  ", yt],
  ])("YouTube %s plays from the privacy-enhanced domain", (input, src) => {
    expect(toVideoSource(input)).toEqual({ kind: "youtube", id: "dQw4w9WgXcQ", src });
  });

  test.each([
    ["https://vimeo.com/76979871", "76979871"],
    ["https://vimeo.com/channels/staffpicks/76979871", "76979871"],
    ["https://player.vimeo.com/video/76979871?h=abc", "76979871"],
  ])("Vimeo %s uses the player URL", (input, id) => {
    expect(toVideoSource(input)).toEqual({
      kind: "vimeo",
      id,
      src: `https://player.vimeo.com/video/${id}?autoplay=1&muted=1&loop=1`,
    });
  });

  test.each([
    ["https://cdn.example.com/promo.mp4", "https://cdn.example.com/promo.mp4", "video/mp4"],
    ["https://cdn.example.com/promo.WEBM?x=1", "https://cdn.example.com/promo.WEBM?x=1", "video/webm"],
    ["https://cdn.example.com/promo.ogg", "https://cdn.example.com/promo.ogg", "video/ogg"],
    ["/uploads/abc123.mp4", "/uploads/abc123.mp4", "video/mp4"],
  ])("a direct file %s plays in a video element", (input, src, type) => {
    expect(toVideoSource(input)).toEqual({ kind: "file", src, type });
  });

  test.each([
    "",
    "https://",
    "not a url at all",
    "javascript:alert(1)//.mp4",
    "data:video/mp4;base64,AAAA",
    "https://www.youtube.com/watch?v=short",
    "https://www.youtube.com/channel/UC123",
    "https://vimeo.com/about",
    "https://example.com/page.html",
    "ftp://example.com/video.mp4",
  ])("%p is not played", (input) => expect(toVideoSource(input)).toBeNull());
});

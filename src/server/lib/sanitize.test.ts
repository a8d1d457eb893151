import { describe, expect, test } from "bun:test";
import { cleanStoredHtml, sanitizePostHtml } from "./sanitize.ts";

describe("blog HTML sanitiser", () => {
  test("keeps ordinary article markup", () => {
    const html =
      "<h2>Title</h2><p>Some <strong>bold</strong> and <em>em</em>.</p><ul><li>One</li></ul><blockquote>Quote</blockquote>";
    expect(sanitizePostHtml(html)).toBe(html);
  });

  test.each([
    ["<p>Hi</p><script>alert(1)</script>", "<p>Hi</p>"],
    ['<script src="https://evil.example/x.js"></script>', ""],
    [
      '<img src="https://x.example/a.png" onerror="alert(1)">',
      '<img alt="" src="https://x.example/a.png" loading="lazy" />',
    ],
    ['<p onclick="steal()" style="color:red">Click</p>', "<p>Click</p>"],
    ['<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="  javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<iframe src="https://evil.example/frame"></iframe>', ""],
    ['<iframe src="javascript:alert(1)"></iframe>', ""],
    ["<style>body{display:none}</style><p>x</p>", "<p>x</p>"],
    ['<svg onload="alert(1)"><circle/></svg>', ""],
    ['<form action="https://evil.example"><input name="p"></form>', ""],
    ['<object data="x.swf"></object><embed src="x.swf">', ""],
    ['<meta http-equiv="refresh" content="0;url=https://evil.example">', ""],
  ])("removes danger: %s", (dirty, clean) => {
    expect(sanitizePostHtml(dirty)).toBe(clean);
  });

  test("keeps YouTube (moved to the privacy-enhanced domain) and Vimeo frames", () => {
    expect(sanitizePostHtml('<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" allowfullscreen></iframe>')).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" allowfullscreen loading="lazy"></iframe>',
    );
    expect(sanitizePostHtml('<iframe src="https://player.vimeo.com/video/76979871"></iframe>')).toBe(
      '<iframe src="https://player.vimeo.com/video/76979871" loading="lazy"></iframe>',
    );
  });

  test("external links open in a new tab without passing the opener", () => {
    expect(sanitizePostHtml('<a href="https://example.com/">x</a>')).toBe(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizePostHtml('<a href="/quiz">quiz</a>')).toBe('<a href="/quiz">quiz</a>');
  });

  test("a managed link (/go/<slug>) is an affiliate link: a new tab, sponsored, the address reduced to the link", () => {
    expect(sanitizePostHtml('<a href="/go/platform-two">join</a>')).toBe(
      '<a href="/go/platform-two" target="_blank" rel="sponsored noopener">join</a>',
    );
    // Whatever the author wrote around it: the page adds its own placement.
    expect(sanitizePostHtml('<a href="/go/platform-two?p=footer#x" rel="nofollow" title="Two">join</a>')).toBe(
      '<a href="/go/platform-two" title="Two" target="_blank" rel="sponsored noopener">join</a>',
    );
    expect(sanitizePostHtml('<a href="/go/../admin">x</a>')).toBe('<a href="/go/../admin">x</a>');
  });
});

describe("stored HTML cleaned on the way out", () => {
  test("is cleaned as on save, the same text each time, and another text is cleaned on its own", () => {
    const dirty = '<p onclick="x()">Hi<script>alert(1)</script></p><img src="/a.png" onerror="x()">';
    const other = '<p>Other <a href="javascript:alert(1)">link</a></p>';
    for (let i = 0; i < 3; i++) {
      expect(cleanStoredHtml(dirty)).toBe(sanitizePostHtml(dirty));
      expect(cleanStoredHtml(other)).toBe(sanitizePostHtml(other));
    }
    expect(cleanStoredHtml(dirty)).not.toContain("script");
    expect(cleanStoredHtml(other)).not.toContain("javascript:");
    // Far more texts than it remembers: each still comes out clean and its own.
    for (let i = 0; i < 600; i++) expect(cleanStoredHtml(`<p>${i}<script>x</script></p>`)).toBe(`<p>${i}</p>`);
  });
});

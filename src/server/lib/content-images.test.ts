import { describe, expect, spyOn, test } from "bun:test";
import { imageAddresses, imageOffSite, offSiteImage, srcsetAddresses } from "./content-images.ts";
import { ALLOWED_ATTRIBUTES, sanitizePostHtml } from "./sanitize.ts";

const FOREIGN = "https://images.example/a.png";

// What each attribute the sanitiser keeps does with its value. An attribute added to the
// allow-list fails the first test until it is named here; an "image" one must be read by the check.
const KINDS: Record<string, Record<string, "image" | "link" | "player frame" | "no address">> = {
  a: { href: "link", title: "no address", rel: "no address", target: "no address" },
  img: {
    src: "image",
    srcset: "image",
    sizes: "no address",
    alt: "no address",
    title: "no address",
    width: "no address",
    height: "no address",
    loading: "no address",
  },
  iframe: {
    src: "player frame",
    title: "no address",
    width: "no address",
    height: "no address",
    allow: "no address",
    allowfullscreen: "no address",
    loading: "no address",
  },
  th: { colspan: "no address", rowspan: "no address", scope: "no address" },
  td: { colspan: "no address", rowspan: "no address" },
};

describe("every attribute the sanitiser keeps is accounted for", () => {
  test("the table above names exactly the allow-list", () => {
    const named = Object.fromEntries(Object.entries(KINDS).map(([tag, attrs]) => [tag, Object.keys(attrs).sort()]));
    const allowed = Object.fromEntries(
      Object.entries(ALLOWED_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs].sort()]),
    );
    expect(named).toEqual(allowed);
  });

  const images = Object.entries(KINDS).flatMap(([tag, attrs]) =>
    Object.entries(attrs)
      .filter(([, kind]) => kind === "image")
      .map(([attr]) => [tag, attr] as const),
  );
  test.each(images)("<%s %s> from another site is found, and survives cleaning (so the check matters)", (tag, attr) => {
    const html = `<${tag} ${attr}="${FOREIGN}">`;
    expect(sanitizePostHtml(html)).toContain("images.example");
    expect(offSiteImage(html)).toBe(FOREIGN);
  });

  test("links may go anywhere; frames are only the video players (the sanitiser drops any other)", () => {
    expect(offSiteImage(`<a href="${FOREIGN}">x</a>`)).toBeUndefined();
    expect(offSiteImage('<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>')).toBeUndefined();
    expect(sanitizePostHtml(`<iframe src="${FOREIGN}"></iframe>`)).toBe("");
  });
});

describe("imageOffSite: read as a browser's URL parser reads it", () => {
  test.each([
    FOREIGN,
    "HTTPS://IMAGES.EXAMPLE/A.PNG",
    "http://images.example/a.png",
    "//images.example/a.png",
    "/\\images.example/a.png",
    "\\\\images.example/a.png",
    "\\/images.example/a.png",
    "/\t/images.example/a.png",
    "/\n/images.example/a.png",
    "h\tttps://images.example/a.png",
    "ht\r\ntps://images.example/a.png",
    "\u0001https://images.example/a.png",
    "  https://images.example/a.png  ",
    "https:images.example/a.png",
    "http:images.example/a.png",
    "https:/images.example/a.png",
    "https:\\\\images.example/a.png",
    "javascript:alert(1)",
    "blob:https://images.example/0b2c",
    "ftp://images.example/a.png",
    "file:///etc/passwd",
    "http://[::1]/a.png",
    "https://xn--80ak6aa92e.com/a.png",
    "http://",
  ])("%p is another site", (address) => {
    expect(imageOffSite(address)).toBe(true);
  });

  test.each([
    "/uploads/0123456789abcdef.png",
    "relative/a.png",
    "./a.png",
    "../../a.png",
    "/%2F%2Fimages.example/a.png",
    "%2F%2Fimages.example/a.png",
    "https%3A//images.example/a.png",
    "/uploads/a b.png",
    "?x=https://images.example/a.png",
    "#https://images.example",
    "data:image/png;base64,iVBORw0KGgo=",
    "DATA:image/svg+xml,<svg/>",
    " data:image/gif;base64,R0lGOD",
    "",
  ])("%p is this site (or data:)", (address) => {
    expect(imageOffSite(address)).toBe(false);
  });
});

describe("srcset: every candidate, however written", () => {
  test.each([
    [`/a.png 1x, ${FOREIGN} 2x`],
    [`${FOREIGN} 2x, /a.png 1x`],
    [`/a.png 480w,${FOREIGN} 960w`],
    [`/a.png,${FOREIGN}`],
    [`/a.png 1x,\n\t${FOREIGN}\n 2x`],
    [`  ,,, ${FOREIGN}`],
    [`data:image/png;base64,AAAA 1x, //images.example/a.png 2x`],
    [`/a.png 1x(, ${FOREIGN} 2x`],
    [`/a.png 1x, /\\images.example/a.png 2x`],
    [`/a.png 1x, HTTPS://IMAGES.EXAMPLE/A.PNG 2x`],
  ])("%p: the foreign candidate is found", (srcset) => {
    const found = srcsetAddresses(srcset).filter(imageOffSite);
    expect(found.length).toBeGreaterThan(0);
    expect(offSiteImage(`<img src="/a.png" srcset="${srcset}">`)).toBeDefined();
  });

  test("a list of this site's candidates passes", () => {
    const srcset = "/uploads/a-480.webp 480w, /uploads/a-960.webp 960w,\n/uploads/a-1600.webp 1600w";
    expect(offSiteImage(`<img src="/uploads/a.png" srcset="${srcset}" sizes="(max-width: 600px) 100vw, 50vw">`)).toBe(
      undefined,
    );
    expect(offSiteImage('<img srcset="data:image/png;base64,iVBORw0KGgo= 1x, /a.png 2x">')).toBeUndefined();
  });

  test("random lists: one foreign candidate anywhere, in any spacing, is always found", () => {
    const spaces = [" ", "  ", "\n", "\t", "\r\n", ", ", ",", " ,\n"];
    const local = ["/a.png", "/uploads/b.webp", "c.png", "data:image/png;base64,AAA", "/x,y.png"];
    const foreign = [FOREIGN, "//images.example/b.png", "/\\images.example/c.png", "HTTP://IMAGES.EXAMPLE/d"];
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    // The sanitiser's srcset reader logs every candidate it cannot read; 500 odd lists would
    // bury the run's report (and a failure elsewhere) under thousands of those lines.
    const quiet = spyOn(console, "log").mockImplementation(() => {});
    try {
      for (let run = 0; run < 500; run++) {
        const candidates = Array.from({ length: 1 + Math.floor(Math.random() * 5) }, () => pick(local));
        candidates.splice(Math.floor(Math.random() * (candidates.length + 1)), 0, pick(foreign));
        const srcset = candidates
          .map((url) => `${url}${Math.random() < 0.5 ? ` ${1 + Math.floor(Math.random() * 3)}x` : ""}`)
          .join(`${pick(spaces)}`)
          .replaceAll(" ", () => pick(spaces));
        expect([srcset, offSiteImage(`<img srcset="${srcset}">`) !== undefined]).toEqual([srcset, true]);
      }
    } finally {
      quiet.mockRestore();
    }
  });
});

describe("images on elements the sanitiser drops are reported too (what the author meant to show)", () => {
  test.each([
    `<picture><source srcset="${FOREIGN}"><img src="/a.png"></picture>`,
    `<picture><source srcset="/a.png 1x, ${FOREIGN} 2x" type="image/webp"><img src="/a.png"></picture>`,
    `<video poster="${FOREIGN}"></video>`,
    `<video><source src="${FOREIGN}"></video>`,
    `<audio src="${FOREIGN}"></audio>`,
    `<input type="image" src="${FOREIGN}">`,
    `<svg><image href="${FOREIGN}"/></svg>`,
    `<svg><image xlink:href="${FOREIGN}"/></svg>`,
    `<object data="${FOREIGN}"></object>`,
    `<embed src="${FOREIGN}">`,
    `<table background="${FOREIGN}"><tr><td>x</td></tr></table>`,
    `<link rel="preload" as="image" imagesrcset="${FOREIGN} 2x">`,
    `<p style="background: url(${FOREIGN})">x</p>`,
    `<p style="background-image: URL( '${FOREIGN}' )">x</p>`,
    `<p style="background: url(\\68ttps://images.example/a.png)">x</p>`,
    `<p style="background: image-set('${FOREIGN}' 1x)">x</p>`,
    `<img src="/a.png" lowsrc="${FOREIGN}">`,
    `<IMG SRCSET="${FOREIGN}">`,
    `<img srcset='${FOREIGN}'>`,
    `<img srcset=${FOREIGN}>`,
    `<img src="&#104;ttps://images.example/a.png">`,
    `<img src="&#x68;ttps&colon;//images.example/a.png">`,
    `<img src="&#1;https://images.example/a.png">`,
  ])("%p", (html) => {
    expect(offSiteImage(html)).toBeDefined();
  });

  test("frames, scripts and links are not images; escapes beyond Unicode in CSS do not throw", () => {
    expect(imageAddresses(`<script src="${FOREIGN}"></script><a href="${FOREIGN}">x</a>`)).toEqual([]);
    expect(imageAddresses('<p style="background: url(\\110000ab)">x</p>')).toEqual(["\ufffdab"]);
  });
});

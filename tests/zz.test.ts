import { test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { renderPage } from "#tests/support/page.ts";
const paths = (process.env.PATHS ?? "/blog").split(",");
test("dump", async () => {
  const { request } = testApp();
  for (const path of paths) {
    const p = await renderPage(request, path);
    console.log("=====", path, p.status, p.title);
    const main = p.document.querySelector("main")!;
    for (const el of main.querySelectorAll("h1,h2,h3,h4,a,button,input,p,span,li,[aria-pressed],img,time,strong")) {
      const t = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 90);
      console.log(el.tagName, [...el.attributes].filter(a => ["href","role","aria-pressed","placeholder","aria-label","class","type","rel","target","src","alt"].includes(a.name)).map(a => `${a.name}=${a.value}`).join(" "), "|", t);
    }
  }
}, 60000);

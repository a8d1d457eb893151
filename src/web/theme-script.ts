import { OLD_COMPLETED_KEY, PROGRESS_KEY } from "./features/progress/store.ts";

// Runs inline in <head> before first paint so a stored dark theme never flashes light, and a
// device in discreet mode never shows the real tab title, icon or sponsor banner.
// The server allows it in the CSP by its hash; keep it free of anything per-request.
export const THEME_STORAGE_KEY = "theme";

/** Local-storage key of discreet mode: "on" while it is on, absent otherwise. */
export const DISCREET_STORAGE_KEY = "discreet";
/** The tab title of every page in discreet mode. */
export const DISCREET_TITLE = "Notes";
/** The plain icon shown in the tab in discreet mode (a file of public/). */
export const DISCREET_ICON = "/favicon-plain.svg";

/** The site's own tab icon. */
export const SITE_ICON = "/favicon.svg";

// Discreet mode: marks <html data-discreet> (CSS hides the banner at once) and, until the page is
// parsed, rewrites the server-rendered title as it arrives, before scripts hydrate. The tab icon
// is added here, not by React (which would add a second one beside a changed one); without
// scripts the browser asks for /favicon.ico, which the server answers with the same icon.
const DISCREET_PART = `var i="${SITE_ICON}";try{if(localStorage.getItem("${DISCREET_STORAGE_KEY}")==="on"){i="${DISCREET_ICON}";var d=document.documentElement;d.setAttribute("data-discreet","");var f=function(){var t=document.querySelector("title");if(t&&t.textContent!=="${DISCREET_TITLE}")t.textContent="${DISCREET_TITLE}"};var o=new MutationObserver(f);o.observe(d,{childList:true,subtree:true});document.addEventListener("DOMContentLoaded",function(){f();o.disconnect()})}}catch(e){}var l=document.createElement("link");l.rel="icon";l.type="image/svg+xml";l.href=i;document.head.appendChild(l);`;

/**
 * A returning visitor: marks <html data-returning> ("completed" once a module is finished,
 * "course" for lessons only) when this browser holds course progress. The server renders every
 * page as for a new visitor and the progress is read after hydration; CSS reserves the space of
 * "Continue where you left off" from the first paint, so it arrives without pushing the page.
 */
export const RETURNING_ATTRIBUTE = "data-returning";
const RETURNING_PART = `try{var p=JSON.parse(localStorage.getItem("${PROGRESS_KEY}")||"null")||{},o=localStorage.getItem("${OLD_COMPLETED_KEY}"),n=function(x){return x&&typeof x==="object"?Object.keys(x).length:0},c=n(p.completed)>0||(o!==null&&o!=="[]");if(c||p.last||n(p.read)||n(p.quizzes))document.documentElement.setAttribute("${RETURNING_ATTRIBUTE}",c?"completed":"course")}catch(e){}`;

export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");if(t!=="light"&&t!=="dark"){t=window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}document.documentElement.setAttribute("data-theme",t)}catch(e){}${RETURNING_PART}${DISCREET_PART}})()`;

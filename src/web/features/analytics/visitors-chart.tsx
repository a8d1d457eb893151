import { useEffect, useRef } from "react";
import type { AnalyticsReport } from "#shared/features/analytics/report.ts";

/** A colour of the current theme, from its CSS variable. */
function themeColor(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

const HEIGHT = 220;

/**
 * Visitors per day as a line (uPlot, loaded with this chart only), the previous period a
 * fainter dashed line under it. Its colours come from the theme's CSS variables and it is
 * drawn again when the theme changes or its container is resized. The same numbers are in
 * the table beside it, which is what assistive technology reads.
 */
const DAY = 86_400;
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY];
const dayLabel = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

export function VisitorsChart({ data, days }: { data: AnalyticsReport["visitors"]; days: number }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    // Without a canvas (an old browser, a test's DOM) the table alone shows the numbers.
    if (!element || typeof ResizeObserver === "undefined" || !document.createElement("canvas").getContext("2d")) return;
    let plot: { destroy: () => void; setSize: (size: { width: number; height: number }) => void } | null = null;
    let gone = false;

    const draw = async () => {
      const { default: UPlot } = await import("uplot");
      if (gone) return;
      plot?.destroy();
      const text = themeColor(element, "--pico-muted-color", "#777");
      const grid = themeColor(element, "--pico-muted-border-color", "#ddd");
      const line = themeColor(element, "--pico-primary", "#c2185b");
      const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
      const x = data.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
      plot = new UPlot(
        {
          width: Math.max(200, element.clientWidth),
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
          axes: [
            {
              ...axis,
              space: 60,
              // Whole days only (the counts are daily, UTC): never hours.
              incrs: DAY_STEPS,
              values: (_u: unknown, splits: number[]) => splits.map(dayLabel),
            },
            { ...axis, size: 44 },
          ],
          series: [
            {},
            { label: "Previous period", stroke: text, width: 1.5, dash: [6, 4] },
            { label: "Visitors", stroke: line, width: 2.5, fill: `color-mix(in srgb, ${line} 15%, transparent)` },
          ],
        },
        [x, data.map((d) => d.previous), data.map((d) => d.count)],
        element,
      );
    };
    void draw();

    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    const theme = new MutationObserver(() => void draw());
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      gone = true;
      resize.disconnect();
      theme.disconnect();
      plot?.destroy();
    };
  }, [data]);

  const total = data.reduce((n, d) => n + d.count, 0);
  return (
    <div
      ref={box}
      className="analytics-chart"
      role="img"
      aria-label={`Line chart: ${total} visitors over the last ${days} days, the previous ${days} days as a dashed line. The table below has each day's numbers.`}
    />
  );
}

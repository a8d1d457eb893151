import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useId } from "react";
import { Link, useSearch } from "wouter";
import { ANALYTICS_PERIODS } from "#shared/features/analytics/constants.ts";
import { type AnalyticsReport, DEFAULT_PERIOD, readPeriod } from "#shared/features/analytics/report.ts";
import { placementLabel } from "#shared/features/links/constants.ts";
import { adminApi, adminHref } from "#web/admin/admin-client.ts";
import { adminQuery } from "#web/admin/admin-queries.ts";
import { VisitorsChart } from "./visitors-chart.tsx";

export const EMPTY_ANALYTICS =
  "Nothing counted yet. Counts appear after the first visits; GPC/DNT visitors and bots are not counted.";

const number = new Intl.NumberFormat("en-US");
const fmt = (n: number) => number.format(n);
const pct = (n: number | null) => (n === null ? "–" : `${n}%`);

/** The Analytics section (docs/product.md#analytics-page): the counts of 7, 30 or 90 days as charts and tables. */
export function AnalyticsTab() {
  const days = readPeriod(new URLSearchParams(useSearch()).get("days")) ?? DEFAULT_PERIOD;
  const report = useQuery({ ...adminQuery(adminApi.analytics, { days }), staleTime: 30_000 });

  return (
    <div className="analytics">
      <div className="toolbar analytics-toolbar">
        <nav aria-label="Period">
          <ul>
            {ANALYTICS_PERIODS.map((n) => (
              <li key={n}>
                <Link href={`/admin/analytics?days=${n}`} aria-current={n === days ? "page" : undefined}>
                  {n} days
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <a href={adminHref(adminApi["analytics.csv"], { days })} download>
          Download CSV<span className="visually-hidden"> of the daily counts of the last {days} days</span>
        </a>
      </div>
      {report.isPending ? (
        <p aria-busy="true">Loading the counts...</p>
      ) : report.isError ? (
        <p role="alert">Error loading the counts. Please try again.</p>
      ) : (
        <Report report={report.data} />
      )}
    </div>
  );
}

export function Report({ report: r }: { report: AnalyticsReport }) {
  const previous = `vs previous ${r.days} days`;
  return (
    <>
      <p className="muted">
        {r.from} to {r.to} (UTC), compared with {r.previousFrom} to {r.previousTo}. Today's visitors and funnel are
        counted live until the nightly roll-up.
      </p>
      {r.overLimitDays.length > 0 && (
        <p className="analytics-over-limit" role="note">
          {overLimitText(r.overLimitDays)}
        </p>
      )}
      {r.empty ? (
        <p className="empty-state">{EMPTY_ANALYTICS}</p>
      ) : (
        <>
          <ul className="analytics-totals">
            {r.totals.map((t) => (
              <li key={t.id}>
                <span className="analytics-total-label">{t.label}</span>
                <strong className="analytics-total-value">{fmt(t.current)}</strong>
                <small>
                  {t.change === null ? (
                    `nothing counted in the previous ${r.days} days`
                  ) : (
                    <>
                      <Change change={t.change} /> {previous} ({fmt(t.previous)})
                    </>
                  )}
                </small>
              </li>
            ))}
          </ul>

          <Section title="Visitors per day">
            <VisitorsChart data={r.visitors} days={r.days} />
            <p className="analytics-legend">
              <span className="legend-current" aria-hidden="true" /> Last {r.days} days (solid){" "}
              <span className="legend-previous" aria-hidden="true" /> Previous {r.days} days (dashed)
            </p>
            <details>
              <summary>Show as table</summary>
              <table className="analytics-table">
                <caption className="visually-hidden">Visitors per day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Visitors</th>
                    <th scope="col">Day before</th>
                    <th scope="col">Visitors</th>
                  </tr>
                </thead>
                <tbody>
                  {r.visitors.map((v) => (
                    <tr key={v.day}>
                      <th scope="row">{v.day}</th>
                      <td>{fmt(v.count)}</td>
                      <td>{v.previousDay}</td>
                      <td>{fmt(v.previous)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </Section>

          <BarTable
            title="Funnel"
            note="Unique visitors a day who took each step and every step above it, in one day (a visitor who came in at a later step, say from a shared result, is not in the funnel). Conversion and drop-off are from the step above. The cards above count every event, so they can be higher."
            rows={r.funnel}
            rowKey={(f) => f.id}
            label={["Step", (f) => f.label]}
            columns={[
              { header: "Visitors", bar: (f) => f.visitors },
              { header: "Conversion", cell: (f) => pct(f.conversion) },
              { header: "Drop-off", cell: (f) => (f.dropOff === null ? "–" : fmt(f.dropOff)) },
            ]}
          />

          <BarTable
            title="Offers"
            note="Views of each offer card (plain bars) and clicks on its link (striped bars); click-through is clicks per view."
            rows={r.offers}
            rowKey={(o) => String(o.id)}
            label={["Offer", (o) => o.title]}
            columns={[
              { header: "Views", bar: (o) => o.views },
              { header: "Clicks", bar: (o) => o.clicks, second: true },
              { header: "Click-through", cell: (o) => pct(o.ctr) },
            ]}
          />

          <div className="analytics-grid">
            <BarTable
              title="Clicks per link"
              rows={r.links}
              rowKey={(k) => k.key}
              label={["Link", (k) => <code>{k.key}</code>]}
              columns={[{ header: "Clicks", bar: (k) => k.count }]}
            />
            <BarTable
              title="Clicks per placement"
              rows={r.placements}
              rowKey={(k) => k.key}
              label={["Placement", (k) => placementLabel(k.key)]}
              columns={[{ header: "Clicks", bar: (k) => k.count }]}
            />
          </div>
          <BarTable
            title="Clicks per link and placement"
            rows={r.clicks.slice(0, 20)}
            rowKey={(c) => `${c.slug}/${c.placement}`}
            label={["Link", (c) => <code>{c.slug}</code>]}
            columns={[
              { header: "Placement", cell: (c) => placementLabel(c.placement) },
              { header: "Clicks", bar: (c) => c.count },
            ]}
          />

          <div className="analytics-grid">
            <BarTable
              title="Top posts"
              rows={r.posts}
              rowKey={(p) => p.slug}
              label={["Post", (p) => p.title]}
              columns={[{ header: "Views", bar: (p) => p.views }]}
            />
            <BarTable
              title="Top modules"
              rows={r.modules}
              rowKey={(m) => String(m.module)}
              label={["Module", (m) => `Module ${m.module}`]}
              columns={[
                { header: "Views", bar: (m) => m.views },
                { header: "Lessons read", cell: (m) => fmt(m.lessonsRead) },
                { header: "Quiz passed", cell: (m) => fmt(m.quizPassed) },
                { header: "Quiz failed", cell: (m) => fmt(m.quizFailed) },
              ]}
            />
          </div>

          <div className="analytics-grid">
            <BarTable
              title="Referrers"
              rows={r.referrers}
              rowKey={(k) => k.key}
              label={["Site", (k) => k.key]}
              columns={[{ header: "Visits", bar: (k) => k.count }]}
            />
            <BarTable
              title="UTM sources"
              rows={r.utmSources}
              rowKey={(k) => k.key}
              label={["Source", (k) => k.key]}
              columns={[{ header: "Visits", bar: (k) => k.count }]}
            />
            <BarTable
              title="Quizzes finished by archetype"
              rows={r.quizFinishes}
              rowKey={(k) => k.key}
              label={["Archetype", (k) => k.key]}
              columns={[{ header: "Finished", bar: (k) => k.count }]}
            />
            <BarTable
              title="Calculator finished by tier"
              rows={r.calculatorFinishes}
              rowKey={(k) => k.key}
              label={["Tier", (k) => k.key]}
              columns={[{ header: "Finished", bar: (k) => k.count }]}
            />
          </div>

          <BarTable
            title="Bot share"
            note={
              r.bots.share === null
                ? "No requests counted."
                : `Bots made ${r.bots.share}% of counted requests; they are kept out of every other number.`
            }
            rows={[
              { key: "People (page views)", count: r.bots.humans },
              ...r.bots.reasons.map((b) => ({ key: `Bots: ${BOT_REASON_LABELS[b.key] ?? b.key}`, count: b.count })),
            ]}
            rowKey={(k) => k.key}
            label={["Requests from", (k) => k.key]}
            columns={[{ header: "Requests", bar: (k) => k.count }]}
          />
        </>
      )}
    </>
  );
}

/** The days some visits went over the daily limits on anonymous writes, said in words. */
export function overLimitText(days: string[]): string {
  const named = days.length <= 5 ? `${days.slice(0, -1).join(", ")} and ${days.at(-1)}` : `the latest ${days.at(-1)}`;
  const list = days.length === 1 ? `On ${days[0]}` : `On ${days.length} days in this period (${named})`;
  return `${list} some events were over the daily limits (too many new visitors from one network, or in all): they are counted only in the totals, as "(over the limit)", not by page, link or source, and not as visitors or in the funnel.`;
}

/** Why a request went to the bot counter, as the admin reads it. */
const BOT_REASON_LABELS: Record<string, string> = {
  "user-agent": "a known bot's user agent",
  "empty-user-agent": "no user agent",
  head: "HEAD requests",
  prefetch: "prefetches",
  "over-daily-limit": "over one visitor's daily limit",
};

function Change({ change }: { change: number }) {
  if (change === 0) return <>no change</>;
  return (
    <span className={change > 0 ? "change-up" : "change-down"}>
      {change > 0 ? `up ${change}%` : `down ${-change}%`}
    </span>
  );
}

function Section({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="analytics-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note && <p className="muted">{note}</p>}
      {children}
    </section>
  );
}

interface BarColumn<T> {
  header: string;
  /** A count drawn as a bar beside its number (longest for the largest in the column). */
  bar?: (row: T) => number;
  /** Drawn in the second bar style (striped), for a column beside another bar column. */
  second?: boolean;
  cell?: (row: T) => ReactNode;
}

/**
 * A bar chart that is a table: every number is written in its cell and the bar beside it
 * only shows its size, so the table is the chart's table view and nothing is said by colour.
 */
function BarTable<T>({
  title,
  note,
  rows,
  rowKey,
  label,
  columns,
}: {
  title: string;
  note?: string;
  rows: T[];
  rowKey: (row: T) => string;
  label: [string, (row: T) => ReactNode];
  columns: BarColumn<T>[];
}) {
  const max = columns.map((c) => (c.bar ? Math.max(0, ...rows.map((row) => c.bar!(row))) : 0));
  return (
    <Section title={title} note={note}>
      {rows.length === 0 ? (
        <p className="muted">Nothing counted in this period.</p>
      ) : (
        <table className="analytics-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{label[0]}</th>
              {columns.map((c) => (
                <th scope="col" key={c.header}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                <th scope="row">{label[1](row)}</th>
                {columns.map((c, i) => {
                  if (!c.bar) return <td key={c.header}>{c.cell?.(row)}</td>;
                  const value = c.bar(row);
                  const width = max[i] ? (value / max[i]!) * 100 : 0;
                  return (
                    <td key={c.header} className="bar-cell">
                      {fmt(value)}
                      <span className={c.second ? "bar bar-second" : "bar"} style={{ width: `${width}%` }} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

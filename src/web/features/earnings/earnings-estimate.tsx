import { useLocation, useSearch } from "wouter";
import type { TierName } from "#shared/features/earnings/constants.ts";
import {
  dollars,
  estimateBand,
  inputsFor,
  LIMITS,
  MAX_HOURS_A_DAY,
  WHAT_IF_PARAMS,
  type WhatIf,
} from "#shared/features/earnings/estimate.ts";

/** Fixed in code, not a setting: the band is a worked example, never a forecast. */
export const ESTIMATE_DISCLAIMER = "Illustrative, not a prediction: many new performers earn less at first.";

/** The what-if controls: each one's label and unit, and the name it has in the address. */
const CONTROLS = (
  [
    { name: "hoursPerWeek", label: "Hours live per week", unit: "hours" },
    { name: "daysPerWeek", label: "Days live per week", unit: "days" },
    { name: "paidSharePercent", label: "Share of live time in paid shows", unit: "%" },
  ] as const satisfies readonly { name: WhatIf; label: string; unit: string }[]
).map((control) => ({ ...control, param: WHAT_IF_PARAMS[control.name] }));

/** "1 day", "4 days", "20%". */
function unitText(value: number, unit: string): string {
  if (unit === "%") return `${value}%`;
  return `${value} ${value === 1 ? unit.replace(/s$/, "") : unit}`;
}

interface Props {
  tier: TierName;
  answers: readonly number[];
  id: string;
}

/** The low / typical / high band of a saved result, its assumptions and the what-if controls. */
/** Hours a show past which the page says such a schedule is hard to keep up. */
const LONG_SHOW_HOURS = 6;

export function EarningsEstimate({ tier, answers, id }: Props) {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const inputs = inputsFor(tier, answers, search);
  const band = estimateBand(inputs);
  const { perPaidMinute: rate } = inputs;

  // Each change replaces the address, so a reload or a bookmark shows this view.
  function change(param: string, value: string) {
    const query = new URLSearchParams({ tier, id });
    for (const control of CONTROLS)
      query.set(control.param, control.param === param ? value : String(inputs[control.name]));
    navigate(`/quiz/earnings?${query}`, { replace: true });
  }

  const hours = inputs.hoursPerWeek;
  const share = inputs.paidSharePercent;
  return (
    <section className="estimate" aria-labelledby="estimate-heading">
      <h2 id="estimate-heading">A worked example for your month</h2>
      <p className="estimate-band" aria-live="polite" data-testid="estimate-band">
        <span>
          Low <strong>{dollars(band.low)}</strong>
        </span>
        <span>
          Typical <strong>{dollars(band.typical)}</strong>
        </span>
        <span>
          High <strong>{dollars(band.high)}</strong>
        </span>
        <span className="estimate-unit">a month</span>
      </p>
      <p className="estimate-disclaimer">{ESTIMATE_DISCLAIMER}</p>

      <h3>The assumptions (you can change the first three)</h3>
      <ul className="estimate-assumptions">
        <li>
          You are live <strong>{hours} hours a week</strong>.
          {band.countedHours < hours &&
            ` Only ${band.countedHours} of them are counted: at most ${MAX_HOURS_A_DAY} hours on each day live.`}
        </li>
        <li>
          Spread over{" "}
          <strong>
            {inputs.daysPerWeek} {inputs.daysPerWeek === 1 ? "day" : "days"} a week
          </strong>
          , about {band.hoursPerShow} hours a show.
          {band.hoursPerShow > LONG_SHOW_HOURS &&
            " Shows that long are hard to keep up: most performers keep each one to a few hours, with breaks."}
        </li>
        <li>
          <strong>{share}%</strong> of your live time is in paid shows (private, ticketed or tipped).
        </li>
        <li>
          Viewers spend <strong>{dollars(rate.low)}</strong> (low), <strong>{dollars(rate.typical)}</strong> (typical)
          or <strong>{dollars(rate.high)}</strong> (high) per paid minute: a guess for this tier, not a measured
          average.
        </li>
        <li>
          The platform passes on <strong>{inputs.payoutPercent}%</strong> of what viewers spend; check your platform's
          terms, shares differ.
        </li>
        <li>
          A month has <strong>{inputs.weeksPerMonth} weeks</strong> on average.
        </li>
      </ul>

      <details className="estimate-how">
        <summary>How we got this number</summary>
        <p>
          {band.countedHours} hours × 60 minutes × {share}% paid × {inputs.weeksPerMonth} weeks = about{" "}
          {band.paidMinutesPerMonth.toLocaleString("en-US")} paid minutes a month.
        </p>
        <p>
          Each paid minute earns what viewers spend times your {inputs.payoutPercent}% share: {dollars(rate.low)},{" "}
          {dollars(rate.typical)} or {dollars(rate.high)} × {inputs.payoutPercent}%. The results are rounded to the
          nearest $10.
        </p>
        <p>
          Days per week do not change the total: they show how long each show would be. The range at the top of the page
          is this band's low and high; the tier's general range is the same sums from the tier's fewest hours and lowest
          paid share to its most hours and highest paid share.
        </p>
      </details>

      {/* Without scripts the form asks the server for the same page with the new values. */}
      <form
        className="estimate-what-if"
        method="get"
        action="/quiz/earnings"
        onSubmit={(event) => event.preventDefault()}
      >
        <h3>What if?</h3>
        {/* The figures the sliders change, beside them: on a phone the band above is a screen
            away, so this line stays in view (sticky) while a slider moves. The band above is the
            one announced; this one is not, so a change is not read twice. */}
        <p className="what-if-result" data-testid="what-if-result">
          Typical <strong>{dollars(band.typical)}</strong> a month{" "}
          <span>
            (low {dollars(band.low)}, high {dollars(band.high)})
          </span>
        </p>
        <input type="hidden" name="tier" value={tier} />
        <input type="hidden" name="id" value={id} />
        {CONTROLS.map(({ name, param, label, unit }) => {
          const value = inputs[name];
          const controlId = `what-if-${param}`;
          // A label holds one control: the label names the slider, the output beside it shows
          // its value, which the slider also announces (aria-valuetext).
          return (
            <div key={param} className="what-if-control">
              <label htmlFor={controlId}>{label}</label>: <output htmlFor={controlId}>{unitText(value, unit)}</output>
              <input
                id={controlId}
                type="range"
                name={param}
                min={LIMITS[name].min}
                max={LIMITS[name].max}
                step={name === "paidSharePercent" ? 5 : 1}
                value={value}
                aria-valuetext={unitText(value, unit)}
                onChange={(event) => change(param, event.target.value)}
              />
            </div>
          );
        })}
        <button type="submit" className="when-no-script">
          Update
        </button>
      </form>
    </section>
  );
}

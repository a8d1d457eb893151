import type { ReactNode } from "react";

/** "Step n of N" with its percentage and an animated bar, as the quiz wizard and the topic viewer show it. */
export function StepProgress({ count, percent, label }: { count: ReactNode; percent: number; label: string }) {
  return (
    <div className="wizard-progress">
      <p className="wizard-count">
        <span>{count}</span>
        <span>{percent}%</span>
      </p>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

import { setDiscreet, useDiscreet } from "./discreet-mode.ts";

/**
 * The discreet-mode switch: a button that stays pressed while the mode is on. It needs scripts
 * (without them nothing can be kept on the device), so CSS hides it when they are off.
 */
export function DiscreetToggle() {
  const on = useDiscreet();
  return (
    <button
      type="button"
      className="discreet-toggle secondary outline"
      aria-pressed={on}
      title="A plain tab title and icon, and no sponsor banner, on this device"
      onClick={() => setDiscreet(!on)}
    >
      Discreet mode
    </button>
  );
}

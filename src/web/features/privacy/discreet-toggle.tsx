import { toast } from "#web/stores/toast.ts";
import { setDiscreet, useDiscreet } from "./discreet-mode.ts";

/** What the switch did, said on screen: on a phone the tab's title and icon are rarely in view. */
export const DISCREET_SAID = {
  on: {
    title: "Discreet mode is on",
    description:
      "On this device, this site's tabs are titled “Notes” with a plain icon, and the sponsor banner is hidden. The pages themselves and your browser's history stay as they are.",
  },
  off: { title: "Discreet mode is off", description: "Tabs show the page's own title and icon again." },
} as const;

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
      onClick={() => {
        setDiscreet(!on);
        toast(on ? DISCREET_SAID.off : DISCREET_SAID.on);
      }}
    >
      Discreet mode
    </button>
  );
}

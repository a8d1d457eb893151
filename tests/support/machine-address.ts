// A public-looking address put on this machine's loopback interface for one suite, as a VPS
// holds its public address on eth0: connecting to it reaches this machine. Needs root (the
// `ip` command, CAP_NET_ADMIN); without it, `add` says why, and the caller skips its cases.
import { readFileSync, writeFileSync } from "node:fs";

export interface MachineAddress {
  /** Takes the address (and the hosts-file lines) away again, if this suite put them there. */
  remove(): void;
  /** Why a name in the hosts file could not be added (null: it was). */
  hostsProblem: string | null;
}

const run = (args: string[]) => {
  const done = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
  return { ok: done.exitCode === 0, said: done.stderr.toString().trim() };
};

const HOSTS = "/etc/hosts";

/**
 * Adds each of `addresses` (IPv4 /32, IPv6 /128) to the interface `lo`, and each of `names`
 * (name → address) to /etc/hosts, marked with `marker` so that only those lines are taken
 * away. Answers why it cannot, or what takes them away again.
 */
export function addMachineAddresses(
  addresses: string[],
  names: Record<string, string>,
  marker: string,
): MachineAddress | string {
  if (process.getuid?.() !== 0) return "not running as root: cannot add an address to an interface";
  if (!Bun.which("ip")) return "the ip command is not installed";
  const added: string[] = [];
  const takeAway = () => {
    for (const address of added) {
      const v6 = address.includes(":");
      run(["ip", ...(v6 ? ["-6"] : []), "addr", "del", `${address}/${v6 ? 128 : 32}`, "dev", "lo"]);
    }
  };
  for (const address of addresses) {
    const v6 = address.includes(":");
    const result = run([
      "ip",
      ...(v6 ? ["-6"] : []),
      "addr",
      "add",
      `${address}/${v6 ? 128 : 32}`,
      "dev",
      "lo",
      ...(v6 ? ["nodad"] : []),
    ]);
    // Already there (another run left it, or the machine holds it): used, not removed.
    if (result.ok) added.push(address);
    else if (!/exists/i.test(result.said)) {
      takeAway();
      return `ip addr add ${address} failed: ${result.said}`;
    }
  }
  let hostsProblem: string | null = null;
  const ours = (line: string) => line.endsWith(`# ${marker}`);
  try {
    const lines = Object.entries(names).map(([name, address]) => `${address} ${name} # ${marker}`);
    const kept = readFileSync(HOSTS, "utf8")
      .trimEnd()
      .split("\n")
      .filter((line) => !ours(line));
    // Written in place: in a container the hosts file is a mounted file that cannot be replaced.
    writeFileSync(HOSTS, `${[...kept, ...lines].join("\n")}\n`);
  } catch (error) {
    hostsProblem = `cannot write ${HOSTS}: ${(error as Error).message}`;
  }
  return {
    hostsProblem,
    remove() {
      takeAway();
      if (hostsProblem) return;
      try {
        const kept = readFileSync(HOSTS, "utf8")
          .trimEnd()
          .split("\n")
          .filter((line) => !ours(line));
        writeFileSync(HOSTS, `${kept.join("\n")}\n`);
      } catch {
        // nothing more can be done: the lines name test names only
      }
    },
  };
}

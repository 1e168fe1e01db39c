/**
 * Keeps file tools and Bash apart in time. While a Bash command runs as root's step uid
 * over the workspace (the tree lent to that uid), the command could swap a folder for a
 * symlink between a file tool's check and its write, and the file tool (running as the
 * proxy's user, possibly root) would follow it. So calls of one kind wait until no call of
 * the other kind is running; calls of the same kind still run together.
 */
type GateKind = "shell" | "files";

export class ToolGate {
  private readonly active: Record<GateKind, number> = { shell: 0, files: 0 };
  private waiting: (() => void)[] = [];

  async run<T>(kind: GateKind, fn: () => Promise<T>): Promise<T> {
    const other: GateKind = kind === "shell" ? "files" : "shell";
    while (this.active[other] > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active[kind]++;
    try {
      return await fn();
    } finally {
      this.active[kind]--;
      const wake = this.waiting;
      this.waiting = [];
      for (const resolve of wake) resolve();
    }
  }
}

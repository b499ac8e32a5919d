/**
 * Runs a step over and over while asked, never two runs at once: a wake
 * during a run asks for one more run after it. The outbox and its edit lane
 * each drive their work with one.
 */
export class SerialPump {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly step: () => Promise<void>,
    private readonly stopped: () => boolean,
  ) {}

  wake(): void {
    if (this.stopped()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.step();
        } while (this.again && !this.stopped());
      } finally {
        this.running = undefined;
      }
    })();
  }

  /** The run going on now, if any. */
  get current(): Promise<void> | undefined {
    return this.running;
  }

  /** Resolves when no run is going on (waiting through at most 100 runs in a row). */
  async idle(): Promise<void> {
    for (let i = 0; i < 100 && this.running; i++) await this.running;
  }
}

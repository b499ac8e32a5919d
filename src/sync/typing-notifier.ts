/**
 * The typing notifier: tells the people of a conversation that the user is
 * composing, with the service's timings.
 *
 * - On the first edit in a conversation: `start`. While edits continue,
 *   `start` again every `server_typing_started_wait_period_milliseconds`
 *   (10 s for older servers).
 * - When edits pause for `server_typing_stopped_wait_period_milliseconds`
 *   (5 s), when the conversation changes, when the message is sent or the
 *   compose box closes: `stop`.
 * Direct messages always; channel topics only with the
 * `stream_typing_notifications` capability (declared by the update machine)
 * on servers that take `stream_id` (feature level 215). The user's settings
 * `send_private_typing_notifications` / `send_stream_typing_notifications`
 * turn either off. Failures are not retried: the next edit sends anew.
 */
import type { ApiClient } from "../api/http.js";
import { setTypingStatus, type TypingParams } from "../api/routes/typing.js";
import type { TimerHandle } from "./clock.js";
import { draftKey } from "./draft-journal.js";
import type { SendTarget } from "./outbox-file.js";
import { CLIENT_CAPABILITIES } from "./register-params.js";
import type { UpdateMachine } from "./update-machine.js";

export interface TypingOptions {
  setTypingStatus?: (client: ApiClient, p: TypingParams) => Promise<unknown>;
  startedWaitMs?: number;
  stoppedWaitMs?: number;
}

export class TypingNotifier {
  private current: { target: SendTarget; key: string; startedAt: number } | undefined;
  private stopTimer: TimerHandle | undefined;
  /** Notifications sent, in order (tests and diagnostics). */
  readonly sent: Array<{ op: "start" | "stop"; key: string; at: number }> = [];

  constructor(
    private readonly machine: UpdateMachine,
    private readonly opts: TypingOptions = {},
  ) {}

  private get startedWaitMs(): number {
    return this.opts.startedWaitMs ?? this.machine.lastRegister?.server_typing_started_wait_period_milliseconds ?? 10_000;
  }

  private get stoppedWaitMs(): number {
    return this.opts.stoppedWaitMs ?? this.machine.lastRegister?.server_typing_stopped_wait_period_milliseconds ?? 5_000;
  }

  /** Call when the compose text changes (not on cursor moves). */
  keystroke(target: SendTarget): void {
    if (!this.allowed(target)) {
      this.stop();
      return;
    }
    const key = draftKey(target);
    const now = this.machine.clock.now();
    if (this.current && this.current.key !== key) this.stop();
    if (!this.current) {
      this.current = { target, key, startedAt: now };
      this.send("start", target, key);
    } else if (now - this.current.startedAt >= this.startedWaitMs) {
      this.current.startedAt = now;
      this.send("start", target, key);
    }
    this.stopTimer?.cancel();
    this.stopTimer = this.machine.clock.setTimeout(() => this.stop(), this.stoppedWaitMs);
  }

  /** Call when the message is sent, the text emptied, or the compose box closed. */
  stop(): void {
    this.stopTimer?.cancel();
    this.stopTimer = undefined;
    const c = this.current;
    this.current = undefined;
    if (c) this.send("stop", c.target, c.key);
  }

  dispose(): void {
    this.stop();
  }

  private allowed(target: SendTarget): boolean {
    const reg = this.machine.lastRegister;
    const settings = (reg?.user_settings ?? {}) as Record<string, unknown>;
    if (target.type === "direct") return settings["send_private_typing_notifications"] !== false;
    if (!CLIENT_CAPABILITIES.stream_typing_notifications) return false;
    if ((reg?.svc_feature_level ?? 0) < 215) return false;
    return settings["send_stream_typing_notifications"] !== false;
  }

  private send(op: "start" | "stop", target: SendTarget, key: string): void {
    if (this.machine.state.kind !== "live") return;
    const level = this.machine.lastRegister?.svc_feature_level ?? 0;
    const p: TypingParams =
      target.type === "direct"
        ? { op, type: level >= 174 ? "direct" : "private", to: target.userIds }
        : { op, type: "stream", stream_id: target.channelId, topic: target.topic };
    this.sent.push({ op, key, at: this.machine.clock.now() });
    void (this.opts.setTypingStatus ?? setTypingStatus)(this.machine.client, p).catch(() => undefined);
  }
}

// Public types of the reference server (re-exported by index.ts).

export interface ServerOptions {
  host?: string;
  port?: number;
  /** Seeded data set (default "demo"); "large" is 20,000 users and 200,000 messages. */
  data?: "demo" | "large";
  heartbeatMs?: number;
  queueIdleMs?: number;
  longpollTimeoutSecs?: number;
  now?: () => number;
  /** Per-user token bucket for authenticated requests (default 2000 per minute); false disables it. */
  rateLimit?: { requests: number; windowMs: number } | false;
}

export interface DemoAccount {
  email: string;
  apiKey: string;
  password: string;
  fullName: string;
  role: "owner" | "admin" | "moderator" | "member" | "guest" | "bot";
  userId: number;
}

export interface RunningServer {
  url: string;
  port: number;
  accounts: DemoAccount[];
  close(): Promise<void>;
}

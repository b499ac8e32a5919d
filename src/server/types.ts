// Public types of the reference server (re-exported by index.ts).

export interface ServerOptions {
  host?: string;
  port?: number;
  data?: "demo";
  heartbeatMs?: number;
  queueIdleMs?: number;
  longpollTimeoutSecs?: number;
  now?: () => number;
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

// Public types of the reference server (re-exported by index.ts).

export interface ServerOptions {
  host?: string;
  port?: number;
  /** Seeded data set (default "demo"); "large" is 20,000 users and 200,000 messages. */
  data?: "demo" | "large";
  heartbeatMs?: number;
  queueIdleMs?: number;
  longpollTimeoutSecs?: number;
  /**
   * The clock in milliseconds (default Date.now): message times, queue expiry, and when
   * scheduled messages and reminders are due. With a clock of their own, tests step time;
   * the server looks at it every 100 ms while something is scheduled.
   */
  now?: () => number;
  /** The organization's upload limit (default 25 MiB). */
  maxFileUploadSizeMib?: number;
  /** Per-user token bucket for authenticated requests (default 2000 per minute); false disables it. */
  rateLimit?: { requests: number; windowMs: number } | false;
  /**
   * Called with every response the server sends (tests record them and check
   * their shape against the public API description). Never changes the answer.
   */
  onResponse?: (record: ResponseRecord) => void;
  /** Called with every file download answered (/user_uploads/…, thumbnails included). Never changes the answer. */
  onFileRequest?: (record: FileRequestRecord) => void;
  /**
   * Whether uploaded images are thumbnailed and `server_thumbnail_formats` lists the formats, as
   * the service does (default true); false answers as a server from before thumbnails.
   */
  thumbnails?: boolean;
  /**
   * The feature level the server reports (default: the level it implements). A lower one
   * answers as an older server would where the difference matters to clients: `anchor=date`
   * (GET /messages, POST /messages/flags/narrow) is refused as an invalid anchor.
   */
  featureLevel?: number;
}

/** One answered file download: its path, the HTTP status and the body's size. */
export interface FileRequestRecord {
  method: string;
  path: string;
  status: number;
  bytes: number;
}

/** One answered request: the path below /api/v1 (no query), the HTTP status and the JSON body. */
export interface ResponseRecord {
  method: string;
  path: string;
  status: number;
  body: Record<string, unknown>;
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

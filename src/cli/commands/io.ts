/** What a scriptable command reads and writes, injectable for tests. */
export interface CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIO = (): CommandIO => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

/** Reads all of stdin as UTF-8 (bounded: a message is at most a few tens of KB; refuse more than 1 MiB). */
export async function readAll(stream: NodeJS.ReadableStream, maxBytes = 1 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > maxBytes) throw new Error(`stdin is larger than ${maxBytes} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls but not DEL, C1
 * controls or bidi overrides, which a terminal may act on; those are
 * escaped too (the output stays valid JSON).
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    // eslint-disable-next-line no-control-regex
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

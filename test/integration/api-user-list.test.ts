/**
 * The organization's user list over real HTTP: read and parsed as it arrives, in whatever
 * pieces the connection brings it, compressed or not; an answer cut short or not JSON is a
 * clear error naming the request, and an error status is the server's own error.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGzip } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, SchemaError } from "../../src/api/errors.js";
import { ApiClient } from "../../src/api/http.js";
import { getAllUsers } from "../../src/api/routes/users.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let stub: Server | undefined;
let fixture: ServerFixture | undefined;
const clients: ApiClient[] = [];

async function stopStub(): Promise<void> {
  if (!stub) return;
  const s = stub;
  stub = undefined;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await fixture?.close();
  fixture = undefined;
  await stopStub();
});

const people = Array.from({ length: 3000 }, (_, i) => ({
  user_id: 100 + i,
  email: `user${i}@example.test`,
  full_name: i % 13 === 0 ? `Ana},{"x":[{ “${i}” ☃` : `Person ${i} Ünïcode 日本`,
  is_active: true,
  is_bot: false,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  role: 400,
  timezone: "",
  date_joined: "2024-01-01T00:00:00+00:00",
  avatar_url: null,
  delivery_email: null,
  profile_data: { "1": { value: `},{ ${i}`, rendered_value: null } },
}));

/** A stub that answers GET /users with `body`, written `piece` bytes at a time (gzipped when asked). */
async function dribbling(status: number, body: Buffer, o: { piece: number; gzip?: boolean }): Promise<ApiClient> {
  stub = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...(o.gzip && { "content-encoding": "gzip" }) });
    const out = o.gzip ? createGzip({ chunkSize: 1024 }) : undefined;
    out?.pipe(res);
    const sink = out ?? res;
    let at = 0;
    const more = (): void => {
      if (at >= body.length) return void sink.end();
      sink.write(body.subarray(at, (at += o.piece)));
      if (o.gzip) out!.flush(more);
      else setImmediate(more);
    };
    more();
  });
  await new Promise<void>((resolve) => stub!.listen(0, "127.0.0.1", resolve));
  const c = new ApiClient({ site: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`, email: "a@example.test", apiKey: "k" }, { retry: { attempts: 1, baseMs: 1, maxMs: 1, maxRetryAfterMs: 0 } });
  clients.push(c);
  return c;
}

describe("the user list, read as it arrives", () => {
  it("every user, in order and as sent, from an answer that comes in small pieces, plain or gzipped", async () => {
    const body = Buffer.from(JSON.stringify({ result: "success", msg: "", members: people }));
    expect(body.length).toBeGreaterThan(500_000);
    for (const gzip of [false, true]) {
      let before = 0;
      const { members } = await getAllUsers(await dribbling(200, body, { piece: 1999, gzip }), undefined, () => before++);
      expect(before).toBe(1);
      const all = members.all();
      expect(all.map(([id]) => id)).toEqual(people.map((p) => p.user_id));
      expect(all.map(([, u]) => u.full_name)).toEqual(people.map((p) => p.full_name));
      expect(members.problems).toEqual([]);
      await stopStub();
    }
  });

  it("an answer cut short, or not JSON, is an error naming the request", async () => {
    const whole = JSON.stringify({ result: "success", msg: "", members: people });
    for (const body of [whole.slice(0, whole.length / 2), `<html>502 Bad Gateway</html>`]) {
      const err = await getAllUsers(await dribbling(200, Buffer.from(body), { piece: 4096 })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaError);
      expect((err as Error).message).toBe("Unexpected response from GET users: the body is not JSON");
      await stopStub();
    }
  });

  it("an error status is the server's error, with its code", async () => {
    const body = Buffer.from(JSON.stringify({ result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" }));
    const err = await getAllUsers(await dribbling(401, body, { piece: 10 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("INVALID_API_KEY");
    expect((err as ApiError).isAuthFailure).toBe(true);
  });

  it("from the reference server: every account of the organization, with its name", async () => {
    fixture = await withServer();
    const { members } = await getAllUsers(fixture.client());
    const names = new Map(members.all().map(([id, u]) => [id, u.full_name]));
    for (const a of fixture.server.accounts) expect(names.get(a.userId)).toBeTypeOf("string");
    expect(names.size).toBeGreaterThanOrEqual(fixture.server.accounts.length);
  });
});

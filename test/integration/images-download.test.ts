/** An image preview's file from the reference server: with the account's credentials, only from its own origin. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, TermchatApiError } from "../../src/api/errors.js";
import { SiteError } from "../../src/api/site.js";
import { sniff } from "../../src/render/images/header.js";
import { FLOOR_PLAN_URL } from "../../src/server/seed/demo-files.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let fx: ServerFixture;
beforeAll(async () => {
  fx = await withServer();
});
afterAll(async () => {
  await fx?.close();
});

describe("downloading an uploaded image", () => {
  it("fetches the demo's floor plan with the account's credentials", async () => {
    const bytes = await fx.client().download(FLOOR_PLAN_URL);
    expect(sniff(bytes)).toBe("png");
  });

  it("a missing file is a 404 error; a file over the limit is refused", async () => {
    const err = await fx.client().download("/user_uploads/2/zz/missing.png").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    await expect(fx.client().download(FLOOR_PLAN_URL, { maxBytes: 100 })).rejects.toThrow(/^file larger than/);
  });

  it("never sends the credentials to another origin or outside /user_uploads/", async () => {
    const c = fx.client();
    for (const path of ["https://evil.example/user_uploads/2/a/x.png", "//evil.example/user_uploads/x.png", "/api/v1/users/me"]) {
      const err = await c.download(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SiteError);
      expect(err).not.toBeInstanceOf(TermchatApiError);
    }
  });
});

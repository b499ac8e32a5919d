import { it } from "vitest";
import { withServer } from "../fixtures/server.js";
import { register } from "../../src/api/index.js";
import { responseProblems } from "../fixtures/openapi-shape.js";
it("register shape", async () => {
  const ctx = await withServer();
  const raw: any[] = [];
  const orig = ctx.conformance.record;
  await register(ctx.client(), { include_subscribers: true, slim_presence: true, client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, user_settings_object: true, empty_topic_name: true, archived_channels: true, include_deactivated_groups: true, user_list_incomplete: true, linkifier_url_template: true, stream_typing_notifications: true, user_avatar_url_field_optional: true } });
  await register(ctx.client());
  const res = await fetch(ctx.server.url + "/api/v1/register", { method: "POST", headers: { authorization: "Basic " + Buffer.from(ctx.owner.email + ":" + ctx.owner.apiKey).toString("base64") } });
  const body = await res.json();
  const probs = responseProblems("POST", "/register", body) ?? ["undocumented"];
  console.log(probs.length, [...new Set(probs.map((p) => p.replace(/\[\d+\]/g, "[]")))].slice(0, 80).join("\n"));
  await ctx.close();
});

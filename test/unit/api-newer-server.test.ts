/**
 * The schemas read a newer server's bodies (test/fixtures/newer-server): unknown fields
 * pass, new enum values are kept, null in an optional field reads as absent, unknown
 * event types and ops become `unknown` — in both spellings of the renamed names. A
 * required field that is broken is still an error naming it.
 */
import { describe, expect, it } from "vitest";
import { MalformedEventError, parseEvent, type ServerEvent } from "../../src/api/schemas/events.js";
import { registerResponseSchema, type RegisterResponse } from "../../src/api/schemas/register.js";
import { getMessagesResponseSchema } from "../../src/api/schemas/responses.js";
import { newerServer } from "../fixtures/newer-server.js";
import { toServiceNames } from "../fixtures/openapi.js";

function parseRegister(body: unknown = newerServer.register()): RegisterResponse {
  const r = registerResponseSchema.safeParse(body);
  if (!r.success) throw new Error(r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  return r.data;
}

const kind = (raw: Record<string, unknown>) => (typeof raw.op === "string" ? `${String(raw.type)}/${raw.op}` : String(raw.type));

const UNFAMILIAR = newerServer.unfamiliarKinds;

describe("register of a newer server", () => {
  it("reads the feature level in both spellings, and keeps fields it does not name", () => {
    const reg = parseRegister();
    expect(reg.svc_feature_level).toBe(512);
    expect(parseRegister(toServiceNames(newerServer.register())).svc_feature_level).toBe(512);
    expect((reg as Record<string, unknown>)["realm_billing"]).toEqual({ has_pending_sponsorship_request: false });
    expect(reg.realm_name).toBe("Harbor Robotics");
  });

  it("users: new roles and bot types are kept, null time zone / avatar version / join date read as absent", () => {
    const reg = parseRegister();
    const users = new Map(reg.realm_users.all());
    expect(reg.realm_users.problems).toEqual([]);
    expect(users.size).toBe(5);
    expect(users.get(9)).toMatchObject({ role: 350, full_name: "Yuki Tanaka" });
    expect(users.get(10)).toMatchObject({ is_bot: true, bot_type: 5, bot_capabilities: ["summaries"] });
    expect(users.get(8)).toMatchObject({ timezone: "", delivery_email: null });
    expect(users.get(8)?.avatar_version).toBeUndefined();
    expect(users.get(8)?.profile_data?.["1"]).toEqual({ value: "Founder" });
    expect(users.get(11)).toMatchObject({ is_imported_stub: true });
    expect(users.get(11)?.date_joined).toBeUndefined();
    expect(reg.realm_non_active_users[0]).toMatchObject({ user_id: 12, is_deleted: true });
  });

  it("channels: new topics policies kept, nulls read as absent, partial subscriber lists and unknown fields kept", () => {
    const reg = parseRegister();
    const [general, firmware, random] = reg.subscriptions;
    expect(general).toMatchObject({ name: "general", partial_subscribers: [7, 8, 9, 10], subscriber_count: 5, channel_kind: "standard" });
    expect(firmware).toMatchObject({ topics_policy: "topic_required_per_thread", description: expect.stringContaining("Motor") });
    expect(firmware?.rendered_description).toBeUndefined();
    expect(firmware?.date_created).toBeUndefined();
    expect(firmware?.subscriber_count).toBeUndefined();
    expect(firmware?.history_public_to_subscribers).toBeUndefined();
    expect(random).toMatchObject({ is_muted: true, topics_policy: "empty_topic_only" });
    expect(reg.unsubscribed[0]).toMatchObject({ stream_id: 104, is_archived: true });
    const joinable = new Map(reg.never_subscribed.all());
    expect(reg.never_subscribed.problems).toEqual([]);
    expect(joinable.get(106)).toMatchObject({ name: "announcements", topics_policy: "announcement_threads" });
    expect(reg.channel_folders.map((f) => [f.name, f.date_created])).toEqual([["Engineering", 1756728000], ["Operations", null]]);
  });

  it("the per-user sections: unreads, topic policies, settings, presence, groups, emoji, drafts, views, snippets", () => {
    const reg = parseRegister();
    expect(reg.unread_msgs).toMatchObject({ count: 5, mentions: [1005], huddles: [{ user_ids_string: "7,8,9" }] });
    expect(reg.user_topics.map((t) => t.visibility_policy)).toEqual([3, 4]);
    expect(reg.user_settings).toMatchObject({ web_home_view: "channels", color_scheme: 4, twenty_four_hour_time: null });
    expect(reg.presences?.["9"]).toEqual({ active_timestamp: 1795599000, idle_timestamp: 0 });
    expect(reg.presences?.["10"]).toMatchObject({ active_timestamp: 1795599990, status: "do_not_disturb" });
    expect(reg.realm_user_groups?.find((g) => g.id === 20)).toMatchObject({ description: "", can_summarize_group: 14 });
    expect(Object.keys(reg.realm_emoji ?? {})).toEqual(["3", "4"]);
    expect(reg.realm_linkifiers?.[0]?.url_template).toContain("{id}");
    expect(reg.drafts?.map((d) => d.type)).toEqual(["stream", "scheduled"]);
    expect(reg.navigation_views?.[1]).toMatchObject({ name: "Launch", icon: "rocket" });
    expect(reg.saved_snippets?.[0]?.title).toBe("Standup");
  });

  it("a presence entry in neither format is left out, not a failure of the register", () => {
    const body = newerServer.register();
    (body.presences as Record<string, unknown>)["11"] = "online";
    const reg = parseRegister(body);
    expect(reg.presences?.["11"]).toBeUndefined();
    expect(reg.presences?.["8"]).toMatchObject({ active_timestamp: 1795599950 });
  });

  it("null in a required field is still an error that names the field", () => {
    const body = newerServer.register();
    (body.subscriptions as Array<Record<string, unknown>>)[0]!.name = null;
    const r = registerResponseSchema.safeParse(body);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["subscriptions.0.name"]);
  });
});

describe("GET /messages of a newer server", () => {
  it("keeps new reaction types, flags and fields, maps the public extra emoji name, reads edit history with unknown fields", () => {
    const r = getMessagesResponseSchema.parse(newerServer.messages());
    const [first, , dm, , moved] = r.messages;
    expect(first?.reactions.map((x) => x.reaction_type)).toEqual(["unicode_emoji", "realm_emoji", "svc_extra_emoji", "sticker_emoji"]);
    expect(first?.flags).toEqual(["starred", "has_thread_summary"]);
    expect(first?.edit_history?.[0]).toMatchObject({ user_id: 8, prev_content: expect.any(String), edit_source: "desktop" });
    expect(dm?.display_recipient).toEqual([expect.objectContaining({ id: 7, is_imported_stub: false }), expect.objectContaining({ id: 9 })]);
    expect(moved?.edit_history?.[0]).toMatchObject({ user_id: null, prev_stream: 102, stream: 101, moved_by_rule: "auto-triage" });
    expect((moved as Record<string, unknown>)["submessages"]).toHaveLength(1);
  });
});

describe("GET /events of a newer server", () => {
  it("every recorded event parses: the unknown kinds as `unknown`, all others as their own type", () => {
    for (const names of ["public", "spec"] as const) {
      const raws = newerServer.events().map((e) => (names === "spec" ? (toServiceNames(e) as Record<string, unknown>) : e));
      const parsed = raws.map((raw) => parseEvent(raw));
      const unknown = raws.filter((_, i) => parsed[i]!.type === "unknown").map(kind);
      expect(unknown).toEqual(UNFAMILIAR);
      raws.forEach((raw, i) => {
        if (!UNFAMILIAR.includes(kind(raw))) expect(parsed[i]!.type).toBe(raw.type);
      });
    }
  });

  it("keeps new enum values in events it knows, and reads nulls in optional fields as absent", () => {
    const byId = new Map<number, ServerEvent>(newerServer.events().map((raw) => [raw.id as number, parseEvent(raw)]));
    expect(byId.get(1)).toMatchObject({ type: "reaction", reaction_type: "sticker_emoji" });
    expect(byId.get(2)).toMatchObject({ type: "reaction", reaction_type: "svc_extra_emoji" });
    expect(byId.get(4)).toMatchObject({ type: "update_message_flags", flag: "has_thread_summary" });
    expect(byId.get(7)).toMatchObject({ type: "update_message", propagate_mode: "change_thread", subject: "bootloader" });
    const deleted = byId.get(8);
    expect(deleted).toMatchObject({ type: "delete_message", message_type: "channel", message_ids: [1004] });
    expect(deleted && "stream_id" in deleted && deleted.stream_id).toBeFalsy();
    expect(byId.get(9)).toMatchObject({ type: "typing", message_type: "channel", stream_id: 101 });
    expect(byId.get(14)).toMatchObject({ type: "realm_user", person: { user_id: 8, pronouns: "he/him" } });
    expect(byId.get(15)).toMatchObject({ type: "realm_user", op: "add", person: { bot_type: 6, timezone: "" } });
    expect(byId.get(17)).toMatchObject({ type: "user_topic", visibility_policy: 5 });
    expect(byId.get(22)).toMatchObject({ type: "presence", presence: { aggregated: { status: "do_not_disturb" } } });
    expect(byId.get(39)).toMatchObject({ type: "user_group", op: "add", group: { description: "" } });
    expect(byId.get(52)).toMatchObject({ type: "restart", svc_feature_level: 513 });
  });

  it("events whose loss puts nothing in doubt are ignored in a shape we cannot read; the others are still malformed", () => {
    expect(parseEvent({ id: 1, type: "typing", op: "start", sender: "yuki" }).type).toBe("unknown");
    expect(parseEvent({ id: 2, type: "typing_edit_message", sender_id: 9 }).type).toBe("unknown");
    expect(parseEvent({ id: 3, type: "presence", presences: { "9": { active_at: "now" } } }).type).toBe("unknown");
    const message = newerServer.events()[0]!;
    expect(() => parseEvent({ ...message, message: { ...(message.message as object), id: "1006" } })).toThrow(MalformedEventError);
  });
});

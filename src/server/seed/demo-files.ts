// Demo files and interactive messages: an image (a gradient PNG drawn at seed
// time) and a text file linked from the design channel, a poll with votes
// and an added option, and a to-do list with a struck and an added task. The
// widget submessages use the web app's formats so that any client can draw
// them.

import { deflateSync } from "node:zlib";
import type { State, User } from "../state.js";
import { addSubmessage } from "../submessages.js";
import { addUpload } from "../uploads.js";
import type { ChannelScript } from "./script-types.js";

const PLAN_DIR = "4f/QmFzZUxpZ2h0aG91c2VQbGFu";
const LIST_DIR = "a7/RnVybml0dXJlTGlzdEZpbmFs";
export const FLOOR_PLAN_URL = `/user_uploads/2/${PLAN_DIR}/floor-plan.png`;
export const FURNITURE_URL = `/user_uploads/2/${LIST_DIR}/furniture-list.txt`;

const POLL = "/poll Which day should we move?\nFriday 12th\nMonday 15th";
const TODO = "/todo Release 2.5\n- Freeze the branch: Wednesday noon\n- Run the migration dry run\n- Write release notes: user-facing changes only";

export const FILE_SCRIPTS: readonly ChannelScript[] = [
  {
    channel: "design", topic: "new office", at: "3 11:00",
    lines: [
      ["lena", `Here's the draft floor plan for the new office: [floor-plan.png](${FLOOR_PLAN_URL})`],
      ["hana", `And the furniture we ordered: [furniture-list.txt](${FURNITURE_URL})`],
      ["maya", POLL],
      ["priya", "Voted. Anything but a Monday please"],
    ],
  },
  {
    channel: "engineering", topic: "release 2.5 checklist", at: "4 09:30",
    lines: [
      ["ben", TODO],
      ["omar", "Branch is frozen"],
    ],
  },
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A `width`×`height` RGB gradient as a PNG file. */
export function gradientPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = Math.round((x / (width - 1)) * 255);
      rows[row + 2 + x * 3] = Math.round((y / (height - 1)) * 255);
      rows[row + 3 + x * 3] = 160;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

const FURNITURE = "Furniture for the new office\n\n- 12 standing desks\n- 4 sofas for the lounge\n- 2 whiteboards\n- 30 chairs\n";

/** Stores the files (before the conversations that link them are delivered). */
export function seedFiles(state: State, u: (short: string) => User, ts: (iso: string) => number): void {
  addUpload(state, u("lena"), "floor-plan.png", gradientPng(64, 48), "image/png", ts("2026-11-14T10:58:00Z") * 1000, PLAN_DIR);
  addUpload(state, u("hana"), "furniture-list.txt", Buffer.from(FURNITURE), "text/plain", ts("2026-11-14T11:01:00Z") * 1000, LIST_DIR);
}

/** Votes, options and tasks on the poll and the to-do list (after the conversations). */
export function seedWidgetActivity(state: State, u: (short: string) => User): void {
  const poll = state.messages.find((m) => m.content === POLL);
  const todo = state.messages.find((m) => m.content === TODO);
  if (!poll || !todo) return;
  const widget = (who: string, data: unknown, message = poll) => addSubmessage(state, message, u(who).id, "widget", JSON.stringify(data));
  widget("priya", { type: "vote", key: "canned,0", vote: 1 });
  widget("hana", { type: "vote", key: "canned,0", vote: 1 });
  widget("lena", { type: "new_option", idx: 1, option: "Saturday 13th" });
  widget("lena", { type: "vote", key: `${u("lena").id},1`, vote: 1 });
  widget("sam", { type: "vote", key: "canned,1", vote: 1 });
  widget("omar", { type: "strike", key: "0,canned" }, todo);
  widget("diego", { type: "new_task", key: 3, task: "Tag the release", desc: "after the dry run", completed: false }, todo);
}

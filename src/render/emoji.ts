// Emoji names → Unicode.
//
// Two layers:
//  - CORE: the service's own names (it follows Zulip's naming, e.g. `smile` is ☺️ and
//    `slight_smile` is 🙂, `check` is ✅, `working_on_it` is 🛠️) for the emoji people actually
//    type and react with. Always available, synchronously, and tiny.
//  - the full GitHub/gemoji-style name table of `node-emoji` (≈1,600 names), loaded by
//    `loadEmojiData()` after the first frame (importing it costs ~30 ms). CORE wins where the
//    two disagree.

type EmojiModule = typeof import("node-emoji");

// name, emoji, aliases…  (canonical name first)
const CORE_ROWS: readonly (readonly string[])[] = [
  ["+1", "👍", "thumbs_up", "thumbsup", "like"],
  ["-1", "👎", "thumbs_down", "thumbsdown"],
  ["tada", "🎉", "congratulations", "party_popper"],
  ["heart", "❤️", "love", "love_you", "red_heart"],
  ["check", "✅", "all_good", "approved", "white_check_mark"],
  ["heavy_check_mark", "✔️", "check_mark"],
  ["eyes", "👀", "looking"],
  ["rocket", "🚀"],
  ["working_on_it", "🛠️", "hammer_and_wrench", "tools"],
  ["smile", "☺️", "relaxed"],
  ["slight_smile", "🙂", "slightly_smiling_face"],
  ["big_smile", "😄"],
  ["grinning", "😀", "happy"],
  ["smiley", "😃"],
  ["grinning_face_with_smiling_eyes", "😁", "grin"],
  ["laughing", "😆", "lol"],
  ["sweat_smile", "😅"],
  ["joy", "😂", "tears", "laughter_tears"],
  ["rolling_on_the_floor_laughing", "🤣", "rofl"],
  ["blush", "😊"],
  ["innocent", "😇", "halo"],
  ["upside_down", "🙃", "oops", "upside_down_face"],
  ["wink", "😉"],
  ["relieved", "😌"],
  ["heart_eyes", "😍", "in_love"],
  ["heart_kiss", "😘", "blow_a_kiss", "kissing_heart"],
  ["yum", "😋"],
  ["stuck_out_tongue_wink", "😜", "joking", "crazy"],
  ["stuck_out_tongue", "😝"],
  ["hug", "🤗", "arms_open", "hugs"],
  ["nerd", "🤓", "geek"],
  ["sunglasses", "😎"],
  ["smirk", "😏", "smug"],
  ["unamused", "😒"],
  ["disappointed", "😞"],
  ["pensive", "😔", "tired"],
  ["worried", "😟"],
  ["oh_no", "😕", "half_frown", "concerned", "confused"],
  ["frown", "🙁", "slight_frown"],
  ["sad", "☹️", "big_frown"],
  ["weary", "😩", "distraught"],
  ["angry", "😠"],
  ["rage", "😡", "mad", "grumpy", "very_angry"],
  ["neutral", "😐", "neutral_face"],
  ["expressionless", "😑"],
  ["open_mouth", "😮", "surprise"],
  ["astonished", "😲"],
  ["flushed", "😳", "embarrassed", "blushing"],
  ["scream", "😱"],
  ["fear", "😨", "scared", "shock", "fearful"],
  ["cry", "😢"],
  ["sob", "😭"],
  ["sweat", "😓"],
  ["sleepy", "😪"],
  ["sleeping", "😴"],
  ["rolling_eyes", "🙄"],
  ["thinking", "🤔", "thinking_face"],
  ["grimacing", "😬", "nervous", "anxious"],
  ["silence", "🤐", "quiet", "hush", "zip_it", "lips_are_sealed"],
  ["cant_talk", "😷", "mask"],
  ["sick", "🤒", "flu", "face_with_thermometer"],
  ["poop", "💩", "pile_of_poo", "hankey"],
  ["ghost", "👻", "boo"],
  ["skull", "💀"],
  ["alien", "👽", "ufo"],
  ["robot", "🤖"],
  ["raised_hands", "🙌", "praise"],
  ["clap", "👏", "applause"],
  ["pray", "🙏", "welcome", "thank_you", "namaste"],
  ["handshake", "🤝", "done_deal"],
  ["fist_bump", "👊", "punch"],
  ["fist", "✊", "power"],
  ["fingers_crossed", "🤞"],
  ["peace_sign", "✌️", "victory", "v"],
  ["rock_on", "🤘", "sign_of_the_horns"],
  ["ok", "👌", "got_it", "ok_hand"],
  ["point_left", "👈"],
  ["point_right", "👉"],
  ["point_up", "👆", "this"],
  ["point_down", "👇"],
  ["wait_one_second", "☝️", "point_of_information", "asking_a_question"],
  ["hand", "✋", "raised_hand"],
  ["high_five", "🖐️", "palm"],
  ["wave", "👋", "hello", "hi"],
  ["muscle", "💪"],
  ["fire", "🔥", "lit"],
  ["100", "💯", "hundred"],
  ["star", "⭐"],
  ["sparkles", "✨"],
  ["zap", "⚡", "high_voltage"],
  ["octopus", "🐙"],
  ["bug", "🐛"],
  ["coffee", "☕"],
  ["beer", "🍺"],
  ["cake", "🍰"],
  ["bulb", "💡", "light_bulb", "idea"],
  ["warning", "⚠️"],
  ["x", "❌", "cross_mark"],
  ["question", "❓"],
  ["exclamation", "❗"],
  ["computer", "💻", "laptop"],
  ["lock", "🔒"],
  ["key", "🔑"],
  ["bell", "🔔"],
  ["calendar", "📅"],
  ["memo", "📝", "note"],
  ["link", "🔗"],
  ["pushpin", "📌", "pin"],
  ["star_struck", "🤩"],
  ["partying_face", "🥳", "partying"],
  ["sunny", "☀️", "sun"],
  ["rainbow", "🌈"],
  ["snowflake", "❄️"],
  ["umbrella", "☂️"],
  ["sweat_drops", "💦"],
  ["boom", "💥", "collision"],
  ["hourglass", "⌛"],
  ["stop_sign", "🛑", "octagonal_sign"],
  ["no_entry", "⛔"],
  ["trophy", "🏆"],
  ["medal", "🏅"],
  ["gift", "🎁", "present"],
  ["balloon", "🎈"],
  ["dog", "🐶"],
  ["cat", "🐱"],
  ["turtle", "🐢"],
  ["penguin", "🐧"],
  ["unicorn", "🦄"],
];

const core = new Map<string, string>();
const coreNames: string[] = []; // every core name and alias, in table order
const coreByEmoji = new Map<string, string>(); // emoji (without presentation selectors) → canonical name
for (const row of CORE_ROWS) {
  const [name, emoji, ...aliases] = row;
  if (name === undefined || emoji === undefined) continue;
  if (!coreByEmoji.has(bare(emoji))) coreByEmoji.set(bare(emoji), name);
  for (const n of [name, ...aliases]) {
    if (!core.has(n)) {
      core.set(n, emoji);
      coreNames.push(n);
    }
  }
}

let full: EmojiModule | undefined;
let fullNames: string[] | undefined;
let loading: Promise<void> | undefined;

/** Load the full emoji name table (idempotent). Until then only the common names resolve. */
export function loadEmojiData(): Promise<void> {
  loading ??= import("node-emoji").then((m) => {
    full = m;
    fullNames = m
      .search(/./)
      .map((e) => e.name)
      .sort();
  });
  return loading;
}

export function isEmojiDataLoaded(): boolean {
  return full !== undefined;
}

function normalize(name: string): string {
  const n = name.startsWith(":") && name.endsWith(":") && name.length > 2 ? name.slice(1, -1) : name;
  return n.toLowerCase();
}

/** The emoji for a name (`tada`, `:tada:`, `+1`, `thumbs_up`…), or undefined when unknown. */
export function emojiByName(name: string): string | undefined {
  const n = normalize(name);
  const c = core.get(n);
  if (c !== undefined) return c;
  if (full === undefined || n === "") return undefined;
  return full.get(n);
}

function bare(emoji: string): string {
  return emoji.replace(/\uFE0F/g, "");
}

/** The name of an emoji (`👍` → `+1`), the service's name where it has one; undefined when unknown. */
export function emojiName(emoji: string): string | undefined {
  const b = bare(emoji);
  const c = coreByEmoji.get(b);
  if (c !== undefined) return c;
  return full?.which(emoji) ?? (b !== emoji ? undefined : full?.which(`${emoji}\uFE0F`));
}

export interface EmojiMatch {
  name: string;
  emoji: string;
}

/**
 * Emoji whose name (or alias) starts with `prefix`, common names first, then the rest
 * alphabetically. For the compose box's `:` completion and the reaction picker.
 */
export function searchEmoji(prefix: string, limit = 10): EmojiMatch[] {
  const p = normalize(prefix);
  const out: EmojiMatch[] = [];
  const seen = new Set<string>();
  const add = (name: string): boolean => {
    if (seen.has(name) || !name.startsWith(p)) return false;
    const emoji = emojiByName(name);
    if (emoji === undefined) return false;
    seen.add(name);
    out.push({ name, emoji });
    return out.length >= limit;
  };
  if (limit <= 0) return out;
  for (const n of coreNames) if (add(n)) return out;
  for (const n of fullNames ?? []) if (add(n)) return out;
  return out;
}

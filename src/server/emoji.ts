// A small unicode emoji table (name → dash-separated hex codepoints) — enough
// for the seeded data and for validating reactions the demo uses.

export const UNICODE_EMOJI: Record<string, string> = {
  "+1": "1f44d",
  thumbs_up: "1f44d",
  thumbs_down: "1f44e",
  smile: "1f604",
  slight_smile: "1f642",
  grinning: "1f600",
  laughing: "1f606",
  joy: "1f602",
  wink: "1f609",
  heart: "2764",
  tada: "1f389",
  eyes: "1f440",
  rocket: "1f680",
  fire: "1f525",
  check: "2705",
  coffee: "2615",
  pizza: "1f355",
  bug: "1f41b",
  sparkles: "2728",
  thinking: "1f914",
  wave: "1f44b",
  clap: "1f44f",
  "100": "1f4af",
  sunglasses: "1f60e",
  octopus: "1f419",
  working_on_it: "1f6e0",
  cry: "1f622",
  pray: "1f64f",
  muscle: "1f4aa",
  star: "2b50",
  warning: "26a0",
  books: "1f4da",
  palm_tree: "1f334",
  umbrella: "2602",
  calendar: "1f4c5",
  lock: "1f512",
  tools: "1f6e0",
  sob: "1f62d",
  party_popper: "1f389",
  red_circle: "1f534",
  green_circle: "1f7e2",
  sunny: "2600",
  sweat_smile: "1f605",
  books_stack: "1f4da",
  seedling: "1f331",
};

/** Unicode text of an emoji code such as "1f44d" or "1f3f3-fe0f". */
export function emojiCodeToText(code: string): string {
  return code
    .split("-")
    .map((h) => String.fromCodePoint(parseInt(h, 16)))
    .join("");
}

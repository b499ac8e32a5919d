// Demo direct-message conversations: one-on-one threads with the owner, a
// group conversation, the owner's notes to self, and one she cannot see.

import type { DmScript } from "./script-types.js";

export const DM_SCRIPTS: readonly DmScript[] = [
  {
    between: ["maya", "ben"], at: "1 08:15",
    lines: [
      ["ben", "Hi Maya, do you have 15 minutes today to go over the infrastructure budget?"],
      ["maya", "Sure, 14:00 works. Send me the spreadsheet beforehand?"],
      ["ben", "Sent. The main change is the backup storage, it doubled since summer"],
      ["maya", "Saw it. Is that the retention policy or just more data?"],
      ["ben", "Mostly retention, we keep 90 days of daily snapshots. 30 would be plenty"],
      ["maya", "Let's go with 30 then, and keep monthly snapshots for a year"],
      ["ben", "Perfect, I'll make the change after the Postgres upgrade", { at: "7 12:30" }],
      ["maya", "Thanks Ben 🙏"],
      ["ben", "Also: I'm out next Friday afternoon, dentist. Priya covers on-call", { at: "8 17:10" }],
      ["maya", "Noted, good luck!"],
    ],
  },
  {
    between: ["maya", "priya"], at: "2 12:10",
    lines: [
      ["priya", "Do you want to review the 2.4 release notes before they go out?"],
      ["maya", "Yes please, especially the part about the new search"],
      ["priya", "Here's the draft:\n\n```quote\nSearch is now up to twice as fast, and results update as you type.\n```"],
      ["maya", "Love it. Maybe mention the old operators still work?"],
      ["priya", "Good point, added", { react: "thumbs_up:maya" }],
      ["priya", "Also, can we talk about Sam's contract sometime next week?", { at: "7 16:45" }],
      ["maya", "Yes — let's do Monday after standup"],
    ],
  },
  {
    between: ["maya", "omar"], at: "6 13:20",
    lines: [
      ["omar", "Quick question: is it OK if I take Wednesday off next week? Moving apartments"],
      ["maya", "Of course! Good luck with the move"],
      ["omar", "Thanks! I'll make sure the search migration notes are written up before"],
      ["omar", "Hi Maya, the export-button fix is tested on staging. Whenever you're ready to approve the hotfix, I can deploy it", { at: "9 14:35" }],
    ],
  },
  {
    between: ["maya", "lena", "diego"], at: "7 13:00",
    lines: [
      ["lena", "Secret planning thread for Hana's birthday on the 24th 🎂"],
      ["diego", "Cake from the bakery on the corner? She loves their lemon tart"],
      ["maya", "Lemon tart it is. I'll expense it, don't worry"],
      ["lena", "I'll get a card going, everyone sign it by Monday"],
      ["diego", "Should we decorate her desk? Or is that too much"],
      ["lena", "A few balloons, nothing crazy 🎈", { react: "joy:diego;heart:maya" }],
      ["diego", "Card is in the top drawer of my desk, signed by everyone except Ben so far", { at: "9 15:10" }],
    ],
  },
  {
    between: ["maya"], at: "3 10:00",
    lines: [
      ["maya", "Notes to self:\n- follow up on office lease renewal\n- review Q1 OKRs with Ben and Priya\n- book the lake house"],
      ["maya", "~~book the lake house~~ Priya did it!", { at: "8 11:30" }],
    ],
  },
  {
    between: ["ben", "omar"], at: "5 15:00",
    lines: [
      ["ben", "Can you take the on-call shift on the 28th? I swapped with Priya but now I have a conflict"],
      ["omar", "Sure, I'll take it"],
      ["ben", "Thanks, I owe you one"],
    ],
  },
  {
    between: ["hana", "sam"], at: "5 12:30",
    lines: [
      ["hana", "Hi Sam! If you want, I can walk you through the design system tomorrow morning"],
      ["sam", "That would be great, 10:00?"],
      ["hana", "10:00 works, see you then 👋"],
    ],
  },
];

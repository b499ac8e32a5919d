// More demo conversations, spread over the channels.

import type { ChannelScript } from "./script-types.js";

export const MORE_SCRIPTS: readonly ChannelScript[] = [
  {
    channel: "engineering", topic: "on-call handbook", at: "2 15:00",
    lines: [
      ["ben", "The on-call handbook is badly out of date. Half the runbooks point to dashboards we deleted"],
      ["omar", "I can take the database and search runbooks"],
      ["diego", "I'll do billing and the payment webhooks"],
      ["priya", "Can we also write down *when* to wake someone up? Right now it's tribal knowledge"],
      ["ben", "Yes. Proposal: page for customer-facing outages and data loss, everything else waits for the morning"],
      ["hana", "And a template for incident notes, so the follow-up is consistent"],
      ["ben", "Here's a skeleton:\n\n```markdown\n## Incident: <title>\n- **Started:** <time>\n- **Detected by:** <alert or person>\n- **Impact:** <who was affected>\n- **Fix:** <what we did>\n- **Follow-ups:** <tickets>\n```"],
      ["omar", "Database and search runbooks updated, with screenshots of the current dashboards", { at: "6 17:20" }],
      ["diego", "Billing done too. I also added how to replay a failed webhook:\n\n```bash\n./scripts/replay-webhook --event-id evt_123 --dry-run\n```", { at: "7 10:10", react: "clap:ben,priya" }],
      ["ben", "Thanks both, I'll review the rest this week"],
    ],
  },
  {
    channel: "general", topic: "team photos", at: "6 12:00",
    lines: [
      ["lena", "The photographer for the new website is coming on Thursday between 10 and 12"],
      ["diego", "Do we need to dress up?"],
      ["lena", "Whatever you'd wear on a normal day, they want it to look natural"],
      ["hana", "Can we do a group photo outside if the weather is nice?"],
      ["lena", "That's the plan, on the rooftop at 11:30"],
      ["omar", "I'll make sure I don't wear the hoodie with the coffee stain 😄"],
      ["lena", "Thanks everyone for the photos today! Previews next week", { at: "8 12:15", react: "heart:hana,maya;smile:diego" }],
      ["sam", "Sorry I missed it, I was in a research session all morning"],
    ],
  },
  {
    channel: "design", topic: "design review friday", at: "2 10:30",
    lines: [
      ["lena", "Design review this Friday at 15:00. On the agenda: settings page cleanup and the empty states"],
      ["hana", "Can I add the new notification preferences screen? It's small"],
      ["lena", "Added, 10 minutes at the end"],
      ["priya", "Will the recording be available? I have a customer call at 15:00"],
      ["lena", "Yes, I'll post it here afterwards"],
      ["lena", "Recording and notes are in the design folder. Main decision: empty states get an illustration + one clear action", { at: "2 16:20", react: "thumbs_up:hana,priya" }],
      ["hana", "I'll start on the illustrations next week 🎨"],
    ],
  },
  {
    channel: "random", topic: "music while coding", at: "1 13:10",
    lines: [
      ["omar", "What's everyone listening to while working? I need new focus music"],
      ["diego", "Lo-fi beats, always. Zero lyrics is the key for me"],
      ["hana", "Film soundtracks. Anything by Hans Zimmer makes a CSS refactor feel epic"],
      ["lena", "Brown noise, honestly. Music distracts me"],
      ["ben", "Old jazz records, Coltrane mostly"],
      ["omar", "Trying the soundtrack idea today, will report back"],
      ["omar", "Report: I finished the migration script while listening to Interstellar. Highly recommended", { at: "1 17:05", react: "joy:hana,diego;rocket:hana" }],
      ["priya", "Adding a shared playlist to the team drive, feel free to add to it"],
    ],
  },
];

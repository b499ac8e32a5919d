// Word pools for the `large` data set. Every message, topic and description
// is picked from these (shared strings), so 200,000 messages cost little
// memory beyond their records.

export const FIRST_NAMES = [
  "Aaliyah", "Abel", "Ada", "Adrian", "Agnes", "Aiko", "Alan", "Alba", "Aleksander", "Alice",
  "Amara", "Amir", "Ana", "Anders", "Anika", "Arjun", "Astrid", "Aurelio", "Bao", "Beatriz",
  "Bilal", "Bjorn", "Bruno", "Camille", "Carlos", "Chen", "Chiara", "Chloe", "Dalia", "Daniel",
  "Dara", "Deepa", "Dmitri", "Elena", "Elif", "Emeka", "Emil", "Esther", "Fatima", "Felix",
  "Freya", "Gabriel", "Giulia", "Hamza", "Hannah", "Hiroshi", "Ines", "Ingrid", "Isaac", "Ivan",
  "Jamal", "Jana", "Javier", "Jin", "Joao", "Julia", "Kai", "Karin", "Kenji", "Kofi",
  "Lars", "Layla", "Leo", "Lucia", "Luis", "Mai", "Malik", "Marta", "Mateo", "Mei",
  "Mila", "Nadia", "Naveen", "Nia", "Nikolai", "Noor", "Olga", "Omari", "Paulo", "Petra",
  "Quentin", "Rafael", "Rania", "Ravi", "Rosa", "Ruth", "Saanvi", "Sofia", "Stefan", "Tariq",
  "Thea", "Tomas", "Umar", "Valentina", "Viktor", "Wen", "Xavier", "Yara", "Yusuf", "Zoe",
] as const;

export const LAST_NAMES = [
  "Abbott", "Acosta", "Adeyemi", "Ahmed", "Alvarez", "Andersen", "Araki", "Bakker", "Banerjee", "Barros",
  "Becker", "Bianchi", "Bjork", "Blanco", "Bondarenko", "Brandt", "Castillo", "Chatterjee", "Chowdhury", "Costa",
  "Dahl", "Das", "Delgado", "Dimitrov", "Dubois", "Eriksen", "Esposito", "Farah", "Ferreira", "Fischer",
  "Fontaine", "Fujita", "Garcia", "Gashi", "Goldberg", "Gomez", "Greco", "Gupta", "Haddad", "Hansen",
  "Hartmann", "Hayashi", "Herrera", "Horvat", "Huang", "Ibrahim", "Ivanova", "Jansen", "Jensen", "Jovanovic",
  "Kapoor", "Karlsson", "Kaur", "Kim", "Kovac", "Kowalski", "Kruger", "Kumar", "Laine", "Larsen",
  "Lee", "Lehmann", "Lindqvist", "Lopez", "Lund", "Maier", "Mancini", "Marin", "Markovic", "Martins",
  "Mendes", "Meyer", "Mihai", "Moreau", "Morales", "Mori", "Mueller", "Murphy", "Nakamura", "Navarro",
  "Nguyen", "Nielsen", "Novak", "Nowak", "Nunez", "Okafor", "Oliveira", "Olsen", "Ortiz", "Ozturk",
  "Park", "Patel", "Pereira", "Petrov", "Popescu", "Quinn", "Rahman", "Ramos", "Reyes", "Ricci",
  "Rossi", "Ruiz", "Saito", "Santos", "Sato", "Schmidt", "Schneider", "Sharma", "Silva", "Singh",
  "Sokolov", "Sousa", "Suzuki", "Svensson", "Takahashi", "Tanaka", "Torres", "Tran", "Vargas", "Vasquez",
  "Virtanen", "Vogel", "Wagner", "Walsh", "Wang", "Weber", "Wojcik", "Wu", "Yamamoto", "Yilmaz",
  "Young", "Zhang", "Zhou", "Zielinski", "Zimmermann", "Aksoy", "Berg", "Cruz", "Dogan", "Eze",
  "Fuentes", "Gallo", "Holm", "Iqbal", "Jung", "Kaya", "Lima", "Moyo", "Ndlovu", "Osei",
  "Pinto", "Qureshi", "Rocha", "Sala", "Toth", "Uddin", "Varga", "Watanabe", "Xu", "Yang",
  "Zapata", "Achterberg", "Bose", "Carvalho", "Doyle", "Engel", "Falk", "Grant", "Hoang", "Ito",
  "Jaramillo", "Keller", "Lorenz", "Mahmoud", "Nair", "Orlov", "Pham", "Richter", "Stone", "Tiwari",
  "Ueda", "Valdez", "Weiss", "Yeo", "Zaman", "Arnold", "Brooks", "Cohen", "Duarte", "Ekstrom",
  "Fraser", "Gill", "Hale", "Ibsen", "Joshi", "Khan", "Lowe", "Mbeki", "Nolan", "Ostrowski",
] as const;

export const TIMEZONES = ["Europe/London", "Europe/Berlin", "America/New_York", "America/Chicago", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "America/Sao_Paulo", ""] as const;

export const CHANNEL_ADJECTIVES = [
  "alpha", "amber", "arctic", "atlas", "aurora", "beacon", "blue", "bold", "bright", "cedar",
  "cobalt", "coral", "cosmic", "crimson", "delta", "ember", "emerald", "falcon", "forest", "golden",
  "granite", "harbor", "indigo", "iron", "jade", "lunar", "maple", "meadow", "nimbus", "north",
  "onyx", "orbit", "pacific", "polar", "quartz", "rapid", "silver", "solar", "summit", "velvet",
] as const;

export const CHANNEL_NOUNS = [
  "api", "apps", "backend", "billing", "build", "cloud", "compliance", "data", "design", "devices",
  "docs", "edge", "events", "finance", "frontend", "growth", "hiring", "infra", "insights", "integrations",
  "kernel", "labs", "legal", "marketing", "mobile", "network", "ops", "partners", "payments", "platform",
  "privacy", "product", "qa", "release", "research", "sales", "search", "security", "storage", "support",
  "sync", "tools", "training", "ux", "video", "web", "wellbeing", "workflow", "writing", "zones",
] as const;

export const CHANNEL_DESCRIPTIONS = [
  "Day-to-day coordination for the team.", "Planning, reviews and the occasional **launch party**.",
  "Questions welcome. Search before asking!", "Weekly syncs, notes and follow-ups.",
  "Incidents, alerts and postmortems.", "Roadmap discussion and design docs.",
  "Everything about releases: schedules, checklists, rollbacks.", "Links, articles and things worth reading.",
  "Customer feedback and how we act on it.", "Experiments, prototypes and results.",
  "Hiring loops, interview feedback and onboarding.", "Budget, vendors and purchasing.",
  "Cross-team requests. Use one topic per request.", "Status updates; keep threads short.",
  "Tooling and developer experience.", "Dashboards, metrics and the numbers behind them.",
  "Announcements only. Discussion goes to the team channel.", "Pairing requests and code review swaps.",
  "Docs and writing: drafts, edits, style questions.", "Social: food, pets, weekend plans :tada:",
] as const;

export const FOLDER_NAMES = [
  "Engineering", "Product", "Design", "Operations", "Sales", "Marketing",
  "Support", "People", "Finance", "Research", "Community", "Archive",
] as const;

export const TOPICS = [
  "standup", "weekly sync", "release planning", "on-call handoff", "flaky tests", "deploys", "retro",
  "roadmap", "bug triage", "design review", "metrics", "hiring", "onboarding", "budget", "vendor review",
  "incident 4521", "incident 4733", "migration plan", "API v3", "search relevance", "latency spikes",
  "cache invalidation", "dark mode", "accessibility audit", "mobile crash", "billing errors", "SSO rollout",
  "data retention", "backups", "cost review", "Q3 goals", "Q4 goals", "offsite", "lunch & learn",
  "book club", "docs refresh", "style guide", "customer calls", "churn analysis", "pricing page",
  "landing page", "email templates", "load testing", "capacity", "postmortem", "security review",
  "pen test", "GDPR request", "feature flags", "experiment results", "A/B test", "user interviews",
  "survey results", "sprint 42", "sprint 43", "sprint 44", "kickoff", "launch checklist", "demo day",
  "office hours", "tooling", "CI speed", "build cache", "dependency upgrades", "node 22", "python 3.13",
  "postgres upgrade", "kafka lag", "queue backlog", "alerts tuning", "runbooks", "status page",
  "✔ release 3.1", "✔ login loop", "✔ broken links", "✔ staging down", "✔ expired cert", "✔ typo on homepage",
  "contract renewal", "partner sync", "conference talk", "blog post", "newsletter", "swag order",
  "travel", "laptops", "VPN issues", "wifi", "coffee machine", "team photo", "birthdays", "welcome!",
  "ideas", "random", "help", "questions", "announcements", "reading list", "podcasts", "music",
  "weekend", "pets", "recipes", "running club", "board games", "quiz night", "volunteering", "charity drive",
  "design tokens", "icons", "typography", "color palette", "motion", "prototype", "usability test",
  "analytics events", "tracking plan", "warehouse", "dbt models", "ETL failures", "schema changes",
  "ML model", "embeddings", "evaluation", "GPU quota", "inference costs", "labeling", "annotations",
  "support macros", "ticket backlog", "SLA", "escalations", "refunds", "invoices", "tax", "payroll",
  "benefits", "policies", "handbook", "offboarding", "access review", "audit log", "SOC 2", "ISO 27001",
] as const;

export const SENTENCES = [
  "Morning all, quick update from my side.", "Looks good to me :+1:", "Can someone take a look at this today?",
  "I pushed a fix, tests are green now.", "Let's discuss in the sync tomorrow.", "Thanks, that helped a lot!",
  "I'm seeing the same thing on staging.", "Merged. Deploying after lunch.", "Does anyone know who owns this?",
  "Here is the doc: https://docs.example.com/plans/q4", "The dashboard is at https://metrics.example.com/d/latency",
  "Screenshot: [latency.png](/user_uploads/2/ab/latency.png)", "Attached the report: [report.pdf](/user_uploads/2/cd/report.pdf)",
  "![diagram](https://images.example.com/arch-diagram.png)", "Short version: **yes**, but not before Friday.",
  "We should write this down in the runbook.", "+1 to what was said above.", "I'll own this one.",
  "Can we timebox this to 30 minutes?", "Rolling back, error rate doubled.", "False alarm, it was the load test.",
  "```bash\nnpm ci && npm test\n```", "```python\nprint(sum(range(10)))\n```", "`retry_after` is in seconds, not ms.",
  "> quoted from the design doc\nI agree with this part.", "Great work everyone :tada:", "On it :working_on_it:",
  "Heads-up: maintenance window Saturday 02:00 UTC.", "Who is on call this week?", "I'll be out tomorrow, back Monday.",
  "The numbers look better than last month.", "Let me check and get back to you.", "Closing this as done.",
  "Reopening, the bug is back.", "Can you share the query you used?", "That matches what the customer reported.",
  "Agreed, let's go with option B.", "Option A is cheaper but slower.", "I have a draft ready for review.",
  "Pairing on this after standup?", "Nice catch!", "Let's not block the release on this.",
  "Adding it to the agenda.", "Meeting notes are in the usual place.", "Ping me if you need a hand.",
  "Is this still an issue?", "Fixed in the latest build.", "Could be a caching problem.",
  "Deploy finished, all checks passing.", "Let's move this discussion to its own topic.",
] as const;

/** Messages mentioning the owner (by the owner's demo name). */
export const OWNER_MENTIONS = [
  "@**Maya Okafor** can you approve this?", "@**Maya Okafor** FYI, see above.",
  "Looping in @**Maya Okafor** for a decision.", "@**Maya Okafor** do we have budget for this?",
] as const;

export const WILDCARD_MENTIONS = ["@**all** please fill in the survey by Friday.", "@**channel** reminder: retro at 15:00."] as const;

export const REACTION_EMOJI: readonly [string, string][] = [
  ["+1", "1f44d"], ["tada", "1f389"], ["heart", "2764"], ["eyes", "1f440"], ["rocket", "1f680"], ["joy", "1f602"],
];

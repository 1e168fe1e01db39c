/**
 * The dashboard's navigation. The header shows the main pages and one Settings entry; the
 * settings pages are grouped on the Settings page and in the side navigation every settings
 * page has (settingsGroups). A page adds its entry here. `instanceAdmin` entries show only to
 * the installation's admins; `count` names a live count shown beside the label (the waits the
 * person may answer); `current` lists the other paths under which an entry is the current one.
 */
export type NavItem = {
  href: string;
  label: string;
  instanceAdmin?: true;
  count?: "waits";
  current?: readonly string[];
};

export type NavGroup = {
  title: string;
  /** For ids: the title in lower case, words joined by "-". */
  slug: string;
  items: readonly (NavItem & { about: string })[];
};

export const settingsGroups: readonly NavGroup[] = [
  {
    title: "Team",
    slug: "team",
    items: [
      {
        href: "/settings/team",
        label: "Team",
        about: "The team's name and how many of its runs run at once.",
      },
      {
        href: "/settings/members",
        label: "Members",
        about: "Who is in the team, their roles, and invitations.",
      },
      {
        href: "/settings/lanes",
        label: "Lanes",
        about: "Who may save and start what, and which calls wait for approval.",
      },
      {
        href: "/settings/budgets",
        label: "Budgets",
        about: "Spend limits per day or month: cost, tokens, tool calls.",
      },
      {
        href: "/settings/notifications",
        label: "Notifications",
        about: "Signed webhooks when a run ends.",
      },
      {
        href: "/settings/audit",
        label: "Audit log",
        about: "Who changed what in this team, and when.",
      },
    ],
  },
  {
    title: "What runs use",
    slug: "what-runs-use",
    items: [
      {
        href: "/settings/variables",
        label: "Variables",
        about: "Values and encrypted secrets for workflows.",
      },
      {
        href: "/settings/connectors",
        label: "Connectors",
        about: "MCP servers agents reach, and their accounts.",
      },
      { href: "/settings/models", label: "Models", about: "Model providers and the team's keys." },
      { href: "/settings/skills", label: "Skills", about: "The team's library of agent skills." },
      {
        href: "/settings/git",
        label: "Git",
        about: "Workflows kept in a git repository, synced on demand, on a schedule or on push.",
      },
    ],
  },
  {
    title: "You",
    slug: "you",
    items: [
      {
        href: "/settings/account",
        label: "Account",
        about: "Your name, email and password.",
      },
      { href: "/settings/tokens", label: "API tokens", about: "Tokens for the REST and tRPC API." },
      {
        href: "/api-reference",
        label: "API reference",
        about: "The REST API, from its OpenAPI document.",
      },
    ],
  },
  {
    title: "Installation",
    slug: "installation",
    items: [
      {
        href: "/settings/instance",
        label: "Instance",
        about: "Who may create teams and sign up, for the whole installation.",
        instanceAdmin: true,
      },
    ],
  },
];

export const navItems: readonly NavItem[] = [
  { href: "/overview", label: "Overview" },
  { href: "/workflows", label: "Workflows" },
  { href: "/templates", label: "Templates" },
  { href: "/packs", label: "Packs" },
  { href: "/runs", label: "Runs" },
  { href: "/waits", label: "Waiting for you", count: "waits" },
  { href: "/settings", label: "Settings", current: ["/api-reference"] },
];

/** The settings groups as `instanceAdmin` may see them (a group left empty goes). */
export const visibleSettings = (instanceAdmin: boolean): NavGroup[] =>
  settingsGroups
    .map((g) => ({ ...g, items: g.items.filter((i) => !i.instanceAdmin || instanceAdmin) }))
    .filter((g) => g.items.length > 0);

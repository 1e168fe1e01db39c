/**
 * The dashboard's navigation, one list: a page adds its entry here and the header (wide
 * screens) and its menu (narrow screens) both show it. `section` groups settings pages
 * after the main ones; `instanceAdmin` entries show only to the installation's admins;
 * `count` names a live count shown beside the label (the waits the person may answer).
 */
export type NavItem = {
  href: string;
  label: string;
  section: "main" | "settings";
  instanceAdmin?: true;
  count?: "waits";
};

export const navItems: readonly NavItem[] = [
  { href: "/overview", label: "Overview", section: "main" },
  { href: "/workflows", label: "Workflows", section: "main" },
  { href: "/templates", label: "Templates", section: "main" },
  { href: "/packs", label: "Packs", section: "main" },
  { href: "/runs", label: "Runs", section: "main" },
  { href: "/waits", label: "Waiting for you", section: "main", count: "waits" },
  { href: "/settings/variables", label: "Variables", section: "settings" },
  { href: "/settings/connectors", label: "Connectors", section: "settings" },
  { href: "/settings/skills", label: "Skills", section: "settings" },
  { href: "/settings/lanes", label: "Lanes", section: "settings" },
  { href: "/settings/models", label: "Models", section: "settings" },
  { href: "/settings/budgets", label: "Budgets", section: "settings" },
  { href: "/settings/team", label: "Team", section: "settings" },
  { href: "/settings/members", label: "Members", section: "settings" },
  { href: "/settings/tokens", label: "API tokens", section: "settings" },
  { href: "/api-reference", label: "API reference", section: "settings" },
  { href: "/settings/notifications", label: "Notifications", section: "settings" },
  { href: "/settings/audit", label: "Audit log", section: "settings" },
  { href: "/settings/account", label: "Account", section: "settings" },
  { href: "/settings/instance", label: "Instance", section: "settings", instanceAdmin: true },
];

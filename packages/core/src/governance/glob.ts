/**
 * Tool name patterns (approval rules, budget call limits): `*` any run of characters,
 * everything else literal. A module of its own, with no dependency, so the dashboard's
 * pages that match patterns do not ship the rules' schemas with them.
 */
const globCache = new Map<string, RegExp>();

/** `*` any run of characters; everything else literal; the whole name. */
export const globMatches = (pattern: string, name: string): boolean => {
  let re = globCache.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, "\\$&"))
        .join(".*")}$`,
    );
    if (globCache.size > 1000) globCache.clear();
    globCache.set(pattern, re);
  }
  return re.test(name);
};

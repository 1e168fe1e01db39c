/**
 * Glob patterns as regular expressions: `**` crosses folders, `*` and `?` stay inside one
 * name, `{a,b}` alternates and `[...]` is a character class. Built once per call; the
 * generated expressions have no nested quantifiers, so matching stays linear.
 */
const escapeChar = (c: string): string => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);

export const globToRegExp = (pattern: string): RegExp => {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atStart = i === 0 || pattern[i - 1] === "/";
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/";
        if (atStart && atEnd) {
          // `**/` matches zero or more whole folders; a trailing `**` matches everything below.
          if (pattern[i + 2] === "/") {
            out += "(?:[^/]*/)*";
            i += 2;
          } else {
            out += ".*";
            i += 1;
          }
          continue;
        }
        i += 1;
      }
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
      } else {
        let body = pattern.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      braceDepth++;
      out += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (c === "," && braceDepth > 0) {
      out += "|";
    } else {
      out += escapeChar(c);
    }
  }
  while (braceDepth-- > 0) out += ")";
  return new RegExp(`^${out}$`);
};

/** A pattern without a slash matches a file's base name anywhere, as most tools do. */
export const globMatcher = (pattern: string): ((relativePath: string) => boolean) => {
  const re = globToRegExp(pattern);
  if (pattern.includes("/")) return (p) => re.test(p);
  return (p) => re.test(p.slice(p.lastIndexOf("/") + 1));
};

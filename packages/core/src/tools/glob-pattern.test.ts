/**
 * The glob matcher: the rules Glob and Grep's `glob` have always followed, in linear time,
 * so a model-written pattern cannot stall the proxy.
 */
import { describe, expect, it } from "vitest";
import { isAppError } from "../errors/app-error";
import { compileGlob, globMatcher, GLOB_MAX_LENGTH, GLOB_MAX_NESTING } from "./glob-pattern";

/**
 * The translation to a JavaScript regular expression these rules were first written as: the
 * reference the matcher must agree with (it backtracks, so only benign cases go through it).
 */
const referenceRegExp = (pattern: string): RegExp => {
  const escapeChar = (c: string) => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);
  let out = "";
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atStart = i === 0 || pattern[i - 1] === "/";
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/";
        if (atStart && atEnd) {
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
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) out += "\\[";
      else {
        let body = pattern.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      depth++;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else out += escapeChar(c);
  }
  while (depth-- > 0) out += ")";
  return new RegExp(`^${out}$`);
};

const PATHS = [
  "a.ts",
  "b.js",
  "a.json",
  ".env",
  ".hidden/x.ts",
  "src/a.ts",
  "src/b.js",
  "src/.dot.ts",
  "src/deep/er/a.ts",
  "src/deep/c.js",
  "src/deep/er/x.tsx",
  "src/",
  "src",
  "lib/src/a.ts",
  "test_a.py",
  "src/test_b.py",
  "a/b/c/d/e.txt",
  "[x].txt",
  "x].txt",
  "a{b.txt",
  "a,b.txt",
  "a}b.txt",
  "a\\b.txt",
  "file.c",
  "file.d",
  "file.z",
  "file.-",
  "file.^",
  "file.!",
  "ab",
  "a",
  "",
  "日本/語.md",
  "a/**/b",
  "a/x/b",
  "a/b",
  "**",
];

const PATTERNS = [
  "**",
  "**/*",
  "**/*.ts",
  "*.ts",
  "*",
  "src/*",
  "src/**",
  "src/**/*.ts",
  "src/**/a.ts",
  "**/deep/**",
  "**/deep/**/*",
  "src/*/er/*.ts",
  "*.{ts,js}",
  "*.{ts,js,}",
  "{src,lib}/**/*.{ts,tsx}",
  "{src/{deep,x},lib}/**",
  "{a,b}.{ts,js{,on}}",
  "*.{ts",
  "a}b.txt",
  "a,b.txt",
  "a{,}b.txt",
  "?.ts",
  "???",
  "?",
  "src/???.ts",
  "file.[cd]",
  "file.[!cd]",
  "file.[^cd]",
  "file.[a-c]",
  "file.[-z]",
  "file.[z-]",
  "file.[]]",
  "[[]x].txt",
  "x].txt",
  "[x].txt",
  "[x.txt",
  "a\\b.txt",
  "a[\\]b.txt",
  "a**",
  "a**b",
  "***",
  "a/**/b",
  "a/**b",
  "a/b**",
  "**.ts",
  "src/**.ts",
  ".*",
  "*/.*",
  "**/.*",
  "test_*.py",
  "**/test_*.py",
  "日本/*",
  "{**/a.ts,b.js}",
  "a/{**,x}/b",
  "",
  "(a|b).ts",
  "a+.ts",
  "^a.ts$",
];

describe("glob matching agrees with the rules as they were", () => {
  it.each(PATTERNS)("%s", (pattern) => {
    const reference = referenceRegExp(pattern);
    const glob = compileGlob(pattern);
    const expected = PATHS.filter((p) => reference.test(p));
    expect(PATHS.filter((p) => glob.test(p))).toEqual(expected);
  });

  it("keeps the documented cases", () => {
    const m = (pattern: string, p: string) => compileGlob(pattern).test(p);
    expect(m("**/*.ts", "a.ts")).toBe(true); // `**/` matches zero folders
    expect(m("**/*.ts", "src/deep/er/a.ts")).toBe(true);
    expect(m("*.ts", "src/a.ts")).toBe(false); // `*` stays in one name
    expect(m("*", ".env")).toBe(true); // dotfiles are not special
    expect(m("**", ".hidden/x.ts")).toBe(true);
    expect(m("src/**", "src/deep/c.js")).toBe(true);
    expect(m("?.ts", "a.ts")).toBe(true);
    expect(m("?.ts", "ab.ts")).toBe(false);
    expect(m("file.[!cd]", "file.z")).toBe(true);
    expect(m("file.[!cd]", "file.c")).toBe(false);
    expect(m("*.{json,yaml}", "a.yaml")).toBe(true);
    expect(m("*.{json,yaml}", "a.yml")).toBe(false);
  });

  it("matches a pattern without a slash against the base name, as Grep's glob does", () => {
    expect(globMatcher("*.ts")("src/deep/a.ts")).toBe(true);
    expect(globMatcher("*.ts")("src/deep/a.js")).toBe(false);
    expect(globMatcher("src/*.ts")("src/a.ts")).toBe(true);
    expect(globMatcher("src/*.ts")("lib/src/a.ts")).toBe(false);
  });
});

describe("hostile globs", () => {
  it("answers a pattern that made the regular expression backtrack for minutes", () => {
    const glob = compileGlob(`${"{*,*}".repeat(8)}!`);
    expect(glob.test("a".repeat(40))).toBe(false);
    expect(glob.test(`${"a".repeat(40)}!`)).toBe(true);
    const stars = compileGlob(`${"*a".repeat(200)}!`);
    expect(stars.test("a".repeat(4000))).toBe(false);
  });

  it("refuses a pattern too long or too deeply nested, with a code and the limit", () => {
    const refusal = (pattern: string) => {
      try {
        compileGlob(pattern);
      } catch (error) {
        if (isAppError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return "accepted";
    };
    expect(refusal("a".repeat(GLOB_MAX_LENGTH))).toBe("accepted");
    expect(refusal("a".repeat(GLOB_MAX_LENGTH + 1))).toBe(
      `USER.PATTERN.TOO_COMPLEX: the glob pattern is longer than ${GLOB_MAX_LENGTH} characters`,
    );
    expect(refusal(`${"{".repeat(GLOB_MAX_NESTING)}a`)).toBe("accepted");
    expect(refusal(`${"{a,".repeat(GLOB_MAX_NESTING + 1)}b`)).toBe(
      `USER.PATTERN.TOO_COMPLEX: the glob pattern nests braces deeper than ${GLOB_MAX_NESTING}`,
    );
    expect(refusal("file.[z-a]")).toMatch(
      /^USER\.PATTERN\.INVALID: \[z-a\] is not a valid character class/,
    );
  });
});

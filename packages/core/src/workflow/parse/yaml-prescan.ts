/**
 * Checks a YAML text before the YAML library builds a tree of it: characters YAML does not
 * allow (NUL and other control characters, lone surrogates), and nesting far deeper than a
 * workflow needs. The library's tree builder recurses once per level and its parser slows
 * with depth, so a line of ten thousand `[` must be refused from the token stream, which is
 * read in one linear pass.
 */
import { CST, Lexer } from "yaml";

/** Outside YAML's printable set (c-printable): C0 controls but tab, LF and CR; DEL; C1 but NEL; lone surrogates; U+FFFE/U+FFFF. */
const NOT_PRINTABLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Unprintable = { offset: number; message: string };

export const findUnprintable = (source: string): Unprintable | undefined => {
  const m = NOT_PRINTABLE.exec(source);
  if (!m) return undefined;
  const hex = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  const utf16 = m[0] === "\0" && /^(\uFEFF|\uFFFD\uFFFD)?.\0.\0/s.test(source);
  return {
    offset: m.index,
    message: `the character U+${hex} is not allowed in YAML${utf16 ? " (the file looks like UTF-16: save it as UTF-8)" : ""}`,
  };
};

/**
 * An upper bound of the nesting depth, from tokens: open flow collections, plus block
 * indentation levels, plus `- ` and `? ` indicators on the current line. Returns the offset
 * where the bound first passes `limit`, or undefined.
 */
export const findDeepNesting = (source: string, limit: number): number | undefined => {
  let offset = 0;
  let flow = 0;
  let inline = 0;
  let lineStart = true;
  let column = 0;
  const indents: number[] = [];
  for (const token of new Lexer().lex(source)) {
    const type = CST.tokenType(token);
    // The lexer's mode markers take no room in the source.
    const marker = type === "doc-mode" || type === "scalar" || type === "flow-error-end";
    if (type === "newline") {
      lineStart = true;
      inline = 0;
      column = 0;
    } else if (type === "space") {
      if (lineStart) column += token.length;
    } else if (type === "flow-map-start" || type === "flow-seq-start") {
      flow++;
    } else if (type === "flow-map-end" || type === "flow-seq-end") {
      flow = Math.max(0, flow - 1);
    } else if ((type === "seq-item-ind" || type === "explicit-key-ind") && flow === 0) {
      inline++;
    }
    const content =
      !marker &&
      type !== "newline" &&
      type !== "space" &&
      type !== "comment" &&
      type !== "byte-order-mark";
    if (lineStart && content) {
      lineStart = false;
      if (flow === 0) {
        const at = column + token.length - token.trimStart().length;
        while (indents.length > 0 && indents[indents.length - 1]! > at) indents.pop();
        if (indents.length === 0 || indents[indents.length - 1]! < at) indents.push(at);
      }
    }
    if (indents.length + inline + flow > limit) return offset;
    if (!marker) offset += token.length;
  }
  return undefined;
};

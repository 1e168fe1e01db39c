import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

/** A double from its IEEE 754 bits, as RFC 8785 Appendix B gives them. */
const fromBits = (hex: string) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
};

describe("canonicalJson (RFC 8785)", () => {
  it("serialises the RFC's sample input (section 3.2.2) as the RFC does", () => {
    const input = JSON.parse(
      String.raw`{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
      }`,
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("sorts keys by UTF-16 code units (section 3.2.3)", () => {
    const input = JSON.parse(
      String.raw`{
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis"
      }`,
    ) as Record<string, string>;
    const canonical = canonicalJson(input);
    expect(canonical).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("writes numbers as Appendix B of the RFC does", () => {
    const table: [string, string][] = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    expect(table.map(([bits]) => canonicalJson(fromBits(bits)))).toEqual(
      table.map(([, text]) => text),
    );
  });

  it("refuses NaN and Infinity (not I-JSON), naming where they are", () => {
    let refused: unknown;
    try {
      canonicalJson({ a: [1, fromBits("7fffffffffffffff")] });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: "USER.INPUT.VALIDATION_FAILED" });
    expect((refused as Error).message).toContain("(root).a[1] is NaN");
    expect(() => canonicalJson(fromBits("7ff0000000000000"))).toThrow(/Infinity/);
  });

  it("gives one form to arguments that differ only in key order, spacing and number spelling", () => {
    const a = JSON.parse('{ "path": "a.txt", "opts": {"b": 1.0, "a": [1e0, 2]} }') as unknown;
    const b = JSON.parse('{"opts":{"a":[1,2.00],"b":1},"path":"a.txt"}') as unknown;
    expect(canonicalJson(a)).toBe('{"opts":{"a":[1,2],"b":1},"path":"a.txt"}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson({ path: "a.txt", opts: { b: 2, a: [1, 2] } })).not.toBe(canonicalJson(a));
  });

  it("leaves out undefined members and writes undefined items as null, as JSON.stringify does", () => {
    expect(canonicalJson({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
  });
});

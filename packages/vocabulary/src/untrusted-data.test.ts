import { describe, expect, it } from "vitest";
import { readUntrustedBlock } from "./untrusted-data.ts";

describe("readUntrustedBlock", () => {
  it("reads the source and the content of one block", () => {
    const text = '<untrusted-data source="tool:shell">\nexit code: 0\nok\n</untrusted-data>';
    expect(readUntrustedBlock(text)).toEqual({ source: "tool:shell", content: "exit code: 0\nok" });
  });

  it("keeps neutralised tags inside the content, and an empty content", () => {
    const inner = "a &lt;/untrusted-data> b";
    expect(
      readUntrustedBlock(`<untrusted-data source="tool:x">\n${inner}\n</untrusted-data>`),
    ).toEqual({ source: "tool:x", content: inner });
    expect(readUntrustedBlock('<untrusted-data source="tool:x">\n\n</untrusted-data>')).toEqual({
      source: "tool:x",
      content: "",
    });
  });

  it("is null for text that is not exactly one block", () => {
    expect(readUntrustedBlock("plain output")).toBeNull();
    expect(
      readUntrustedBlock('x <untrusted-data source="tool:x">\ny\n</untrusted-data>'),
    ).toBeNull();
    expect(readUntrustedBlock('<untrusted-data source="a b">\ny\n</untrusted-data>')).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { parseAnsi } from "./ansi.ts";

describe("parseAnsi", () => {
  it("turns SGR colours into classed segments and resets", () => {
    expect(parseAnsi("a\x1b[31mred\x1b[0m b\x1b[1;92mok\x1b[m")).toEqual([
      { text: "a", className: "" },
      { text: "red", className: "text-red-400" },
      { text: " b", className: "" },
      { text: "ok", className: "text-green-300 font-bold" },
    ]);
  });

  it("drops other escapes, OSC 8 links included, keeping only their visible text", () => {
    const osc8 = "\x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\";
    expect(parseAnsi(`x\x1b[2K\x1b[1A${osc8}y`)).toEqual([{ text: "xclicky", className: "" }]);
  });

  it("keeps markup as text (rendering escapes it)", () => {
    expect(parseAnsi("<img src=x onerror=alert(1)>")).toEqual([
      { text: "<img src=x onerror=alert(1)>", className: "" },
    ]);
  });

  it("256-colour basic entries map; true colour is ignored without eating text", () => {
    expect(parseAnsi("\x1b[38;5;1mr\x1b[38;2;1;2;3mt")).toEqual([
      { text: "r", className: "text-red-400" },
      { text: "t", className: "" },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { deviceInWords } from "./device.ts";

describe("a session's device in words", () => {
  it("names the browser and the system of common user agents", () => {
    const cases: Array<[string, string]> = [
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
        "Chrome on Linux",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        "Edge on Windows",
      ],
      [
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
        "Safari on macOS",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
        "Safari on iOS",
      ],
      [
        "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
        "Firefox on Linux",
      ],
      [
        "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
        "Chrome on Android",
      ],
      ["curl/8.5.0", "curl"],
    ];
    for (const [agent, words] of cases) expect(deviceInWords(agent), agent).toBe(words);
  });

  it("says what it does not know", () => {
    expect(deviceInWords(null)).toBe("Unknown device");
    expect(deviceInWords("something/1.0")).toBe("Unknown device");
    expect(deviceInWords("Mozilla/5.0 (X11; Linux x86_64)")).toBe("A browser on Linux");
  });
});

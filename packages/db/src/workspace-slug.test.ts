import { describe, expect, it } from "vitest";
import { workspaceSlug } from "./workspace-slug.ts";

const SUFFIX = /-[0-9a-f]{6}$/;
const baseOf = (slug: string) => slug.replace(SUFFIX, "");

describe("workspaceSlug", () => {
  it("is the name in lowercase words joined by hyphens, then a random suffix", () => {
    const slug = workspaceSlug("Acme Corp");
    expect(slug).toMatch(/^acme-corp-[0-9a-f]{6}$/);
  });

  it("keeps only ASCII letters and digits, without leading or trailing hyphens", () => {
    expect(baseOf(workspaceSlug("  Loner's  Team!! "))).toBe("loner-s-team");
    expect(baseOf(workspaceSlug("Équipe Zürich 2"))).toBe("quipe-z-rich-2");
  });

  it("falls back to 'workspace' when the name has nothing usable", () => {
    expect(baseOf(workspaceSlug("!!!"))).toBe("workspace");
    expect(baseOf(workspaceSlug("日本語"))).toBe("workspace");
  });

  it("cuts the name part at 40 characters", () => {
    expect(baseOf(workspaceSlug("a".repeat(100)))).toBe("a".repeat(40));
  });

  it("gives two workspaces of the same name different slugs", () => {
    expect(workspaceSlug("Same")).not.toBe(workspaceSlug("Same"));
  });
});

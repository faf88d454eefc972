/** The wait after an upload's last byte: what its polite live region says, and how often that changes. */
import { describe, expect, it } from "vitest";
import { CHECKING_ANNOUNCE_EVERY_SECONDS, checkingAnnouncement } from "./upload-progress";

describe("checkingAnnouncement", () => {
  it("says the file is being checked, then the seconds in steps of 10", () => {
    expect(checkingAnnouncement(0)).toBe("Uploaded; the server is checking the file.");
    expect(checkingAnnouncement(9)).toBe("Uploaded; the server is checking the file.");
    expect(checkingAnnouncement(10)).toBe("Still checking the file: 10 seconds so far.");
    expect(checkingAnnouncement(29)).toBe("Still checking the file: 20 seconds so far.");
    expect(checkingAnnouncement(-3)).toBe("Uploaded; the server is checking the file.");
  });

  it("changes at most once every 10 seconds over a minute of waiting (the region is not chatty)", () => {
    const texts = Array.from({ length: 61 }, (_, s) => checkingAnnouncement(s));
    const changes = texts.filter((t, i) => i > 0 && t !== texts[i - 1]).length;
    expect(CHECKING_ANNOUNCE_EVERY_SECONDS).toBe(10);
    expect(changes).toBe(6);
  });
});

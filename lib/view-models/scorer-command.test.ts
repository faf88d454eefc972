/** The local score command of each evaluation profile (issue 24 §3 B), checked against the CLI's options. */
import { describe, expect, it } from "vitest";
import { customProfile, EVALUATION_PROFILES } from "../../scoring/presets";
import { scorerCommand } from "./scorer-command";

describe("scorerCommand", () => {
  it("uses --preset crac for the CRAC profile", () => {
    expect(scorerCommand(EVALUATION_PROFILES.crac.primary, true, "1.2.3")).toEqual({
      command: "node corefboard-1.2.3.mjs score KEY RUN --preset crac",
      flags: ["--preset", "crac"],
      fileName: "corefboard-1.2.3.mjs",
    });
  });

  it("needs no flag for the CoNLL-2012 profile", () => {
    expect(scorerCommand(EVALUATION_PROFILES.conll2012.primary, false, "1.2.3").command).toBe("node corefboard-1.2.3.mjs score KEY RUN");
  });

  it("spells out a custom profile's settings, zero matching only for CorefUD", () => {
    const custom = customProfile({ match: "partial", zeroMatch: "linear", removeSingletons: true });
    expect(scorerCommand(custom.primary, true, "1.2.3").flags).toEqual(["--match", "partial", "--zero-match", "linear", "--remove-singletons"]);
    expect(scorerCommand(custom.primary, false, "1.2.3").flags).toEqual(["--match", "partial", "--remove-singletons"]);
  });
});

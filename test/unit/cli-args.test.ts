import { describe, expect, it } from "vitest";
import { UsageError, parseCliArgs } from "../../src/cli/args.js";

describe("command line", () => {
  it("starts the client with a config file", () => {
    expect(parseCliArgs(["--config", "/tmp/rc"], {})).toMatchObject({ command: "client", config: "/tmp/rc", demo: false, color: true });
  });

  it("takes --site/--email/--api-key together only", () => {
    expect(parseCliArgs(["--site", "https://x", "--email", "a@b", "--api-key", "k"], {})).toMatchObject({ site: "https://x" });
    expect(() => parseCliArgs(["--site", "https://x"], {})).toThrow(/go together/);
  });

  it("rejects unknown options and bad ports with a specific message", () => {
    expect(() => parseCliArgs(["--frobnicate"], {})).toThrow(UsageError);
    expect(() => parseCliArgs(["--frobnicate"], {})).toThrow(/frobnicate/);
    expect(() => parseCliArgs(["--demo", "--port", "http"], {})).toThrow(/--port expects a number/);
    expect(() => parseCliArgs(["server", "--port", "99999"], {})).toThrow(/--port/);
  });

  it("parses the server subcommand", () => {
    expect(parseCliArgs(["server", "--port", "0", "--zuliprc-dir", "/tmp/d"], {})).toEqual({ command: "server", port: 0, data: "demo", zuliprcDir: "/tmp/d" });
  });

  it("chooses the server's data set with --data demo|large, and refuses others", () => {
    expect(parseCliArgs(["server", "--data", "large"], {})).toMatchObject({ command: "server", data: "large", port: 9991 });
    expect(parseCliArgs(["server", "--data", "demo"], {})).toMatchObject({ command: "server", data: "demo" });
    expect(parseCliArgs(["server"], {})).toMatchObject({ data: "demo" });
    for (const bad of ["huge", "", "Large"]) {
      expect(() => parseCliArgs(["server", "--data", bad], {})).toThrow(UsageError);
      expect(() => parseCliArgs(["server", "--data", bad], {})).toThrow(`--data expects demo or large, not "${bad}"`);
    }
    expect(() => parseCliArgs(["server", "--data"], {})).toThrow(UsageError);
    // --data belongs to the server subcommand only.
    expect(() => parseCliArgs(["--demo", "--data", "large"], {})).toThrow(UsageError);
  });

  it("respects NO_COLOR", () => {
    expect(parseCliArgs(["--demo"], { NO_COLOR: "1" })).toMatchObject({ demo: true, color: false });
  });
});

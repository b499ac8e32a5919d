/** Length limits the organization sets (register's max_* fields), as the palette's forms check them. */
import { describe, expect, it } from "vitest";
import { withinLimit } from "../../src/ui/palette-commands-context.js";
import * as eg from "../fixtures/example.js";

describe("length limits from register", () => {
  it("the store keeps the channel and folder limits; servers without folders get the service's own", () => {
    const s = eg.store({ max_stream_name_length: 40, max_stream_description_length: 500, max_channel_folder_name_length: 30, max_channel_folder_description_length: 200 });
    expect(s.realm).toMatchObject({ maxChannelNameLength: 40, maxChannelDescriptionLength: 500, maxFolderNameLength: 30, maxFolderDescriptionLength: 200 });
    const old = eg.store({ max_channel_folder_name_length: undefined, max_channel_folder_description_length: undefined });
    expect(old.realm).toMatchObject({ maxFolderNameLength: 60, maxFolderDescriptionLength: 1024 });
  });

  it("counts characters, not bytes or UTF-16 units, and says the limit and the length", () => {
    const check = withinLimit("A folder name", 5, true);
    expect(check("😀😀😀😀😀")).toBeUndefined(); // five characters, ten UTF-16 units
    expect(check("abcdef")).toBe("A folder name is longer than the organization's limit of 5 characters (this is 6)");
    expect(check("  ")).toBe("A folder name cannot be empty");
    expect(withinLimit("The description", 5)("")).toBeUndefined();
  });
});

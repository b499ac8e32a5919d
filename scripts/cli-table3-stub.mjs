// marked-terminal imports cli-table3 for its own table renderer, which termchat replaces
// (src/render/markdown-table.ts draws tables with termchat's width function). The bundle and the
// tests take this in its place; if anything ever reached it, the message would show as its
// source (the renderer's failure path), not a table measured with another width function.
export default class Table {
  constructor() {
    throw new Error("termchat draws tables itself (src/render/markdown-table.ts)");
  }
}

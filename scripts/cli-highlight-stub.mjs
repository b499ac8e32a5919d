// marked-terminal imports cli-highlight (and with it every highlight.js language) for its own code
// renderer, which termchat replaces (src/render/markdown-dialect.ts highlights through
// src/render/highlight.ts). The bundle takes this in its place.
export function highlight(code) {
  return code;
}
export function supportsLanguage() {
  return false;
}

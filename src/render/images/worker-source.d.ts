/** The image decoder thread's code, bundled by scripts/image-worker.mjs and carried as text. */
declare module "termchat:image-decoder" {
  const source: string;
  export default source;
}

/** WebAssembly modules are embedded in the bundle as their bytes. */
declare module "*.wasm" {
  const bytes: Uint8Array;
  export default bytes;
}

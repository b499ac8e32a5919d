declare module "omggif" {
  export class GifReader {
    constructor(buf: Uint8Array);
    width: number;
    height: number;
    numFrames(): number;
    loopCount(): number | null;
    frameInfo(frame: number): {
      x: number;
      y: number;
      width: number;
      height: number;
      interlaced: boolean;
      delay: number;
      disposal: number;
      transparent_index: number | null;
    };
    decodeAndBlitFrameRGBA(frame: number, pixels: Uint8Array): void;
  }
  export class GifWriter {
    constructor(buf: Uint8Array, width: number, height: number, opts?: { palette?: number[]; loop?: number });
    addFrame(x: number, y: number, w: number, h: number, indexed: Uint8Array | number[], opts?: { palette?: number[]; delay?: number; transparent?: number }): number;
    end(): number;
  }
}

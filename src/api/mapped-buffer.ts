/**
 * Large, short-lived buffers (a register body: megabytes on a big organization) kept out of
 * the C allocator. glibc raises its mmap threshold to the size of the largest mapped block
 * freed so far: once a 10 MB body is freed, every later block below 10 MB comes from its heap,
 * which it rarely gives back. On a 20,000-user organization that kept 6 MB resident for good.
 * A WebAssembly memory is mapped by V8 itself and unmapped when collected, so it leaves the
 * allocator's thresholds where they were.
 */

/** Below this, a buffer comes from the usual allocator (glibc's initial mmap threshold). */
export const MAPPED_FROM = 128 * 1024;
const PAGE = 64 * 1024;

/** A buffer of `size` bytes, contents unset; mapped apart from the C heap when large. */
export function largeBuffer(size: number): Buffer {
  if (size < MAPPED_FROM) return Buffer.allocUnsafe(size);
  try {
    return Buffer.from(new WebAssembly.Memory({ initial: Math.ceil(size / PAGE) }).buffer, 0, size);
  } catch {
    return Buffer.allocUnsafe(size); // no room for the mapping: the allocator's buffer works the same
  }
}

/** Chunks joined in one buffer (`largeBuffer` when large), each let go as it is copied. */
export function joinBytes(chunks: Buffer[]): Buffer {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  if (chunks.length === 1) return chunks[0]!;
  const out = largeBuffer(total);
  let at = 0;
  for (let i = 0; i < chunks.length; i++) {
    at += chunks[i]!.copy(out, at);
    chunks[i] = EMPTY;
  }
  return out;
}

/**
 * Bytes of a size not known ahead gathered into one buffer: chunks while small, then one
 * WebAssembly memory (mapped by V8, apart from the C heap, as largeBuffer's) that grows in place
 * (V8 reserves its address range, so growing copies nothing, and pages not yet written take no
 * memory), doubling from 256 KB.
 */
export function growingCollector(): { add(chunk: Buffer): void; result(): Buffer } {
  const small: Buffer[] = [];
  let smallBytes = 0;
  let memory: WebAssembly.Memory | undefined;
  let view: Buffer | undefined;
  let used = 0;
  const room = (bytes: number) => {
    if (!memory) {
      try {
        memory = new WebAssembly.Memory({ initial: Math.ceil(Math.max(bytes, 2 * MAPPED_FROM) / PAGE), maximum: 65536 });
      } catch {
        return false; // no room for the mapping: the chunks are joined at the end
      }
    } else if (memory.buffer.byteLength < bytes) {
      try {
        memory.grow(Math.ceil(Math.max(bytes - memory.buffer.byteLength, memory.buffer.byteLength) / PAGE));
      } catch {
        return false;
      }
    } else return true;
    view = Buffer.from(memory.buffer);
    return true;
  };
  return {
    add(chunk) {
      if (!view && smallBytes + chunk.length < MAPPED_FROM) {
        small.push(chunk);
        smallBytes += chunk.length;
        return;
      }
      if (!view) {
        if (!room(smallBytes + chunk.length)) {
          small.push(chunk);
          smallBytes += chunk.length;
          return;
        }
        for (const part of small.splice(0)) used += part.copy(view!, used);
        smallBytes = 0;
      } else if (!room(used + chunk.length)) {
        // The mapping could not grow: what is gathered so far becomes a chunk like any other.
        small.push(Buffer.from(view.subarray(0, used)), chunk);
        smallBytes = used + chunk.length;
        memory = undefined;
        view = undefined;
        used = 0;
        return;
      }
      used += chunk.copy(view!, used);
    },
    result: () => (view ? view.subarray(0, used) : joinBytes(small)),
  };
}

const EMPTY = Buffer.alloc(0);

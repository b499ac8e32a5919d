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

const EMPTY = Buffer.alloc(0);

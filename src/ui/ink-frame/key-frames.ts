/**
 * Frames that answer a key go out at once. Ink draws at most 30 frames a second: a change within
 * 33 ms of the last frame waits for the end of that window, so a key pressed soon after anything
 * was drawn (a message arriving, the read state a frame before changed) waited for the window
 * too — most keys of a reader moving through messages. The keypress bus notes each key it hands
 * to a handler; the Ink patch (scripts/ink-patch.mjs) draws the next frame after one at once,
 * while changes from the server still share Ink's windows. Terminal-wide, like the keys.
 */
let keyWaiting = false;

/** A key was handed to a handler: the frame it leads to is not to wait. */
export function noteKey(): void {
  keyWaiting = true;
}

/** Whether the frame being drawn answers a key (and forgets the key). */
export function takeKeyFrame(): boolean {
  const waiting = keyWaiting;
  keyWaiting = false;
  return waiting;
}

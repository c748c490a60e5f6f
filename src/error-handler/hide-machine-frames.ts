import { basename, dirname, resolve, sep } from 'node:path';
import { type StackFrame } from './parse-stack';

/** Loupe's own directory: its sources (where source maps point), and `dist/` when compiled. */
const BUILT = resolve(__dirname, '..', '..');
const ROOT = basename(BUILT) === 'dist' ? dirname(BUILT) : BUILT;

/**
 * Where the request machine runs: XState itself, and Loupe's files that XState calls into
 * (the machine definitions and the action implementations of kernel-machine), compiled or not.
 */
const MACHINE_FILES = [ROOT, resolve(ROOT, 'dist')].flatMap((root) => [resolve(root, 'machines') + sep, resolve(root, 'src', 'kernel', 'kernel-machine.')]);
const XSTATE = [`${sep}node_modules${sep}xstate${sep}`, '/node_modules/xstate/'];

/** True for a frame of the request machine's workings, which says nothing about the request's error. */
export function isMachineFrame(frame: StackFrame): boolean {
  const { file } = frame;
  return XSTATE.some((dir) => file.includes(dir)) || MACHINE_FILES.some((prefix) => file.startsWith(prefix));
}

/**
 * The frame that stands for `count` frames left out. Its text is ASCII (`...`, not `…`): it is in
 * every 404's profile and error page, and one character outside Latin-1 makes V8 hold the whole
 * JSON and HTML as two-byte strings, which every later step (serializing, UTF-8 encoding, the
 * socket write) then handles at about twice the cost.
 */
function hiddenFrames(count: number): StackFrame {
  return { function: `... ${count} state-machine frame${count === 1 ? '' : 's'} hidden (XState)`, file: '', line: 0, column: 0, hidden: count };
}

/**
 * `frames` with each run of the request machine's frames (XState's, which fill most of a
 * 10-frame trace under the kernel, and Loupe's machine glue) replaced by one frame that counts
 * them: the application's frames and the kernel's (listeners, dispatch, controller) stay. The
 * first frame, where the error was created, is always kept, whatever file it is in.
 */
export function hideMachineFrames(frames: readonly StackFrame[]): StackFrame[] {
  const out: StackFrame[] = [];
  let run = 0;
  frames.forEach((frame, index) => {
    if (index > 0 && isMachineFrame(frame)) {
      run += 1;
      return;
    }
    if (run > 0) out.push(hiddenFrames(run));
    run = 0;
    out.push(frame);
  });
  if (run > 0) out.push(hiddenFrames(run));
  return out;
}

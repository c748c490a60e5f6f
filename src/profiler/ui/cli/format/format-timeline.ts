import { type PhaseRecord } from '../../../../kernel/trace';
import { formatDuration } from '../../../../cli/format/format-duration';

/**
 * One line per phase: its name, start and duration, and a bar placing it on the request's
 * time axis (`total` milliseconds wide, drawn `width` characters wide). A phase too short to
 * cover a character still gets one, so that every phase is visible.
 */
export function formatTimeline(phases: readonly PhaseRecord[], total: number, width = 40): string[] {
  // kernel.terminate runs on after the profile's duration is taken: the axis must hold it too.
  const span = Math.max(total, ...phases.map((phase) => phase.start + phase.duration)) || 1;
  const nameWidth = Math.max(0, ...phases.map((phase) => phase.name.length));
  const startTexts = phases.map((phase) => `+${formatDuration(phase.start)}`);
  const durationTexts = phases.map((phase) => formatDuration(phase.duration));
  const startWidth = Math.max(0, ...startTexts.map((text) => text.length));
  const durationWidth = Math.max(0, ...durationTexts.map((text) => text.length));
  return phases.map((phase, index) => {
    const from = Math.min(width - 1, Math.max(0, Math.floor((phase.start / span) * width)));
    const length = Math.max(1, Math.min(width - from, Math.round((phase.duration / span) * width)));
    const bar = ' '.repeat(from) + '#'.repeat(length) + ' '.repeat(width - from - length);
    const start = (startTexts[index] ?? '').padStart(startWidth);
    const duration = (durationTexts[index] ?? '').padStart(durationWidth);
    return `${phase.name.padEnd(nameWidth)}  ${start}  ${duration}  |${bar}|`;
  });
}

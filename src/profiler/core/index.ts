/**
 * The profiler core, for any Node.js server (`loupe-kernel/profiler`): it loads neither
 * uWebSockets.js nor XState, nor anything of Loupe's kernel but the plain types a request is
 * recorded in. Loupe's own kernel drives the same core (see ProfilerCore).
 */
export { startProfiler, type StartProfilerOptions, type StartedProfiler, type StartedProfilerConfig } from './start-profiler';
export { type ProfileStoreKind } from '../profiler-config';
export { ProfiledRequest } from './profiled-request';
export { type RequestStart, type ResponseEnd } from './request-start';
export { ProfilerPaths, profilePath } from '../profiler-paths';
export { currentRequest, type CurrentRequest } from '../../kernel/request-context';

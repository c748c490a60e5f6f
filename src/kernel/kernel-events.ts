/**
 * The phases of one request, named as Symfony's HttpKernel names its events. Each is a state of
 * the request machine (machines/request.machine.ts); listeners subscribe to them by name.
 */
export { KernelEvents, type KernelPhase } from '../../machines/kernel-phases';

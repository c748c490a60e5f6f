import { KernelEvent } from './kernel-event';

/** kernel.finish_request (Symfony's FinishRequestEvent): a response exists; reset what the request changed. */
export class FinishRequestEvent extends KernelEvent {}

import test from 'ava';
import { type KernelEvent } from '../../src/kernel/event/kernel-event';
import { defineListener as listener } from '../../src/kernel/listener';
import { ListenerRegistry } from '../../src/kernel/listener-registry';

const noop = (_event: KernelEvent): void => undefined;

function order(registry: ListenerRegistry, phase: Parameters<ListenerRegistry['for']>[0]): string[] {
  return registry.for(phase).map(({ name, priority }) => `${name}@${priority}`);
}

test('listeners of a phase run highest priority first', (t) => {
  const registry = new ListenerRegistry([
    listener('Low', { 'kernel.request': [-10, noop] }),
    listener('High', { 'kernel.request': [256, noop] }),
    listener('Middle', { 'kernel.request': [32, noop] }),
  ]);
  t.deepEqual(order(registry, 'kernel.request'), ['High@256', 'Middle@32', 'Low@-10']);
});

test('listeners of the same priority keep the order they were registered in', (t) => {
  const registry = new ListenerRegistry([
    listener('A', { 'kernel.response': [0, noop] }),
    listener('B', { 'kernel.response': [8, noop] }),
    listener('C', { 'kernel.response': [0, noop] }),
    listener('D', { 'kernel.response': [0, noop] }),
  ]);
  t.deepEqual(order(registry, 'kernel.response'), ['B@8', 'A@0', 'C@0', 'D@0']);
});

test('a listener with several subscriptions to one phase appears once per priority', (t) => {
  const first = (_event: KernelEvent): void => undefined;
  const second = (_event: KernelEvent): void => undefined;
  const registry = new ListenerRegistry([
    listener('Locale', {
      'kernel.request': [
        [100, first],
        [16, second],
      ],
    }),
    listener('Router', { 'kernel.request': [32, noop] }),
  ]);
  t.deepEqual(order(registry, 'kernel.request'), ['Locale@100', 'Router@32', 'Locale@16']);
  t.is(registry.for('kernel.request')[0]?.handle, first);
  t.is(registry.for('kernel.request')[2]?.handle, second);
});

test('each phase has its own list', (t) => {
  const onRequest = (_event: KernelEvent): void => undefined;
  const onFinish = (_event: KernelEvent): void => undefined;
  const registry = new ListenerRegistry([
    listener('Router', {
      'kernel.request': [32, onRequest],
      'kernel.finish_request': [0, onFinish],
    }),
  ]);
  t.deepEqual(registry.for('kernel.request'), [{ name: 'Router', priority: 32, handle: onRequest }]);
  t.deepEqual(registry.for('kernel.finish_request'), [{ name: 'Router', priority: 0, handle: onFinish }]);
});

test('a phase nobody subscribed to has no listeners', (t) => {
  t.deepEqual(new ListenerRegistry([]).for('kernel.request'), []);
  const registry = new ListenerRegistry([listener('Robots', { 'kernel.response': [-255, noop] })]);
  t.deepEqual(registry.for('kernel.terminate'), []);
  t.deepEqual(registry.for('kernel.view'), []);
});

test('table() lists every subscribed phase with its listeners in the order they run', (t) => {
  const registry = new ListenerRegistry([
    listener('Robots', { 'kernel.response': [-255, noop] }),
    listener('Locale', {
      'kernel.request': [
        [100, noop],
        [16, noop],
      ],
      'kernel.finish_request': [0, noop],
    }),
    listener('Router', { 'kernel.request': [32, noop] }),
  ]);
  t.deepEqual(registry.table(), [
    { phase: 'kernel.response', listeners: [{ name: 'Robots', priority: -255 }] },
    {
      phase: 'kernel.request',
      listeners: [
        { name: 'Locale', priority: 100 },
        { name: 'Router', priority: 32 },
        { name: 'Locale', priority: 16 },
      ],
    },
    { phase: 'kernel.finish_request', listeners: [{ name: 'Locale', priority: 0 }] },
  ]);
});
